/** Members, their groups, group requests, custom fields and bulk uploads. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, credits, languageEnum } from './columns';
import { ssoPlatforms } from './sso';
import { backgroundTasks } from './tasks';
import { tenantId } from './tenants';

export const memberStatusEnum = pgEnum('member_status', ['pending', 'approved', 'rejected', 'deactivated', 'invited']);

export const memberTypeEnum = pgEnum('member_type', ['organization', 'individual']);

export const customFieldTypeEnum = pgEnum('custom_field_type', ['text', 'number']);

export const memberGroups = pgTable(
  'member_groups',
  {
    id: id(),
    tenantId: tenantId(),
    /** A group has at least one of its two names; the missing one is '' (spec §5: each unique, not both present). */
    koName: text('ko_name').notNull().default(''),
    enName: text('en_name').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    /** Monthly credits the whole group may use; null is no group limit. */
    creditQuota: credits('credit_quota'),
    /** Monthly credits each member of the group may use unless the member has an override. */
    memberCreditQuota: credits('member_credit_quota'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('member_groups_ko_name_idx')
      .on(t.tenantId, t.koName)
      .where(sql`${t.koName} <> ''`),
    uniqueIndex('member_groups_en_name_idx')
      .on(t.tenantId, t.enName)
      .where(sql`${t.enName} <> ''`),
    uniqueIndex('member_groups_one_default_idx')
      .on(t.tenantId)
      .where(sql`${t.isDefault}`),
  ],
);

export const members = pgTable(
  'members',
  {
    id: id(),
    tenantId: tenantId(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id; null for SSO-only members. */
    passwordHash: text('password_hash'),
    status: memberStatusEnum('status').notNull().default('pending'),
    memberType: memberTypeEnum('member_type').notNull().default('organization'),
    isAdmin: boolean('is_admin').notNull().default(false),
    language: languageEnum('language').notNull().default('ko'),
    defaultMemberGroupId: integer('default_member_group_id').references(() => memberGroups.id, { onDelete: 'set null' }),
    /** Overrides the group's member_credit_quota when set. */
    creditQuota: credits('credit_quota'),
    ssoPlatformId: integer('sso_platform_id').references(() => ssoPlatforms.id, { onDelete: 'set null' }),
    ssoId: text('sso_id'),
    ssoUserType: text('sso_user_type'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('members_email_idx').on(t.tenantId, t.email),
    // One account per identity of a platform: the identity signs in to exactly one member.
    uniqueIndex('members_sso_identity_idx')
      .on(t.tenantId, t.ssoPlatformId, t.ssoId)
      .where(sql`${t.ssoId} IS NOT NULL`),
    // The admin member list (10,000 members and more): its default order and its status filter.
    index('members_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('members_tenant_status_idx').on(t.tenantId, t.status),
    // Its free-text search (`ILIKE '%term%'`): trigram indexes answer a substring in any letter case.
    index('members_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('members_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);

/** The member a row belongs to: it goes when they do. */
export function memberId() {
  return integer('member_id')
    .notNull()
    .references(() => members.id, { onDelete: 'cascade' });
}

/** Every group a member belongs to, the default one included. */
export const memberGroupLinks = pgTable(
  'member_group_links',
  {
    tenantId: tenantId(),
    memberId: memberId(),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
  },
  // The key leads with the member; the admin list's group filter and group counts start from the group.
  (t) => [primaryKey({ columns: [t.memberId, t.memberGroupId] }), index('member_group_links_group_idx').on(t.memberGroupId)],
);

/** Pending requests to join or change groups, approved or rejected by an admin. */
export const memberGroupQueues = pgTable(
  'member_group_queues',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: memberId(),
    requestType: text('request_type', { enum: ['registration', 'group_update'] }).notNull(),
    defaultMemberGroupId: integer('default_member_group_id').references(() => memberGroups.id, { onDelete: 'cascade' }),
    memberGroupIds: jsonb('member_group_ids').$type<number[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  // A member's request, found by the member and its type (admin requests list, decisions, My page).
  (t) => [index('member_group_queues_member_idx').on(t.memberId, t.requestType)],
);

export const customFields = pgTable(
  'custom_fields',
  {
    id: id(),
    tenantId: tenantId(),
    /** A field has at least one of its two names; the missing one is '' (as a member group's). */
    koName: text('ko_name').notNull().default(''),
    enName: text('en_name').notNull().default(''),
    fieldType: customFieldTypeEnum('field_type').notNull().default('text'),
    isSignupField: boolean('is_signup_field').notNull().default(false),
    isSearchable: boolean('is_searchable').notNull().default(false),
    isRequired: boolean('is_required').notNull().default(false),
    isEditable: boolean('is_editable').notNull().default(true),
    isUnique: boolean('is_unique').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('custom_fields_ko_name_idx')
      .on(t.tenantId, t.koName)
      .where(sql`${t.koName} <> ''`),
    uniqueIndex('custom_fields_en_name_idx')
      .on(t.tenantId, t.enName)
      .where(sql`${t.enName} <> ''`),
  ],
);

export const memberCustomFieldValues = pgTable(
  'member_custom_field_values',
  {
    tenantId: tenantId(),
    memberId: memberId(),
    customFieldId: integer('custom_field_id')
      .notNull()
      .references(() => customFields.id, { onDelete: 'cascade' }),
    value: text('value'),
  },
  // The trigram index serves the admin member search over searchable fields' values.
  (t) => [primaryKey({ columns: [t.memberId, t.customFieldId] }), index('member_custom_field_values_value_trgm_idx').using('gin', t.value.op('gin_trgm_ops'))],
);

/**
 * A member upload's checkpoint (docs/decisions/0063-member-export-and-bulk-upload.md): written in
 * the transaction of each batch, so a restarted job resumes after the last committed batch.
 */
export const memberUploads = pgTable('member_uploads', {
  taskId: integer('task_id')
    .primaryKey()
    .references(() => backgroundTasks.id, { onDelete: 'cascade' }),
  tenantId: tenantId(),
  /** Data rows of the file already handled (invited or failed). */
  processed: integer('processed').notNull().default(0),
  invited: integer('invited').notNull().default(0),
  failedRows: jsonb('failed_rows').$type<Array<{ row: number; email: string; reason: string; field: string | null }>>().notNull().default([]),
  /** Set with the upload's audit row: a rerun after that has only the result left to give. */
  completedAt: timestamp('completed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

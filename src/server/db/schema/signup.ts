/** Invitations and the policies a new member agrees to. */
import { boolean, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { files } from './files';
import { memberGroups, memberId, members } from './members';
import { tenantId } from './tenants';

export const policyKindEnum = pgEnum('policy_kind', ['file', 'video', 'markdown']);

export const invitationStatusEnum = pgEnum('invitation_status', ['pending', 'accepted']);

export const invitations = pgTable('invitations', {
  id: id(),
  tenantId: tenantId(),
  invitationHashId: text('invitation_hash_id').notNull().unique(),
  email: text('email').notNull(),
  name: text('name'),
  temporaryPasswordHash: text('temporary_password_hash').notNull(),
  memberGroupId: integer('member_group_id').references(() => memberGroups.id, { onDelete: 'set null' }),
  invitedById: integer('invited_by_id').references(() => members.id, { onDelete: 'set null' }),
  status: invitationStatusEnum('status').notNull().default('pending'),
  /** Custom-field values and SSO id from a member upload, given to the member on accept. */
  customFieldValues: jsonb('custom_field_values').$type<Array<{ customFieldId: number; value: string }>>(),
  ssoId: text('sso_id'),
  createdAt: createdAt(),
});

export const policies = pgTable('policies', {
  id: id(),
  tenantId: tenantId(),
  policyName: text('policy_name').notNull(),
  kind: policyKindEnum('kind').notNull(),
  isMandatory: boolean('is_mandatory').notNull().default(true),
  markdownContent: text('markdown_content'),
  videoUrl: text('video_url'),
  fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const policyAgreements = pgTable(
  'policy_agreements',
  {
    tenantId: tenantId(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    memberId: memberId(),
    agreedAt: timestamp('agreed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.memberId] })],
);

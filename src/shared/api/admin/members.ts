import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, idSchema, idTextSchema, languageSchema, okSchema, pageQuerySchema, paginatedSchema, queryBoolean } from '../common';
import { customFieldInputSchema, customFieldValueSchema, memberStatusSchema } from '../members';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';
import { isWellFormedText } from '../../domain/text';

export const memberTypeSchema = z.enum(['organization', 'individual']);

/** A group as the admin member screens name it. */
export const memberGroupRefSchema = z.object({ id: z.number().int(), ko_name: z.string(), en_name: z.string() });
export type MemberGroupRef = z.infer<typeof memberGroupRefSchema>;

/**
 * Text that is also written into the audit log's jsonb: PostgreSQL refuses a JSON string holding
 * half a surrogate pair, so the contract refuses it first (400, not a database error).
 */
export const wellFormedText = (schema: z.ZodString) => schema.refine(isWellFormedText, { message: 'validation.invalid' });

/** Most members one bulk call takes. */
export const MEMBER_BULK_MAX = 1000;
/** A per-member monthly credit limit (null: the default group's per-member quota applies). */
export const creditQuotaSchema = z.number().min(0).max(1e12).nullable();

/** A member as the admin console shows it (spec §3 Member). */
export const adminMemberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  member_status: memberStatusSchema,
  member_type: memberTypeSchema,
  is_admin: z.boolean(),
  language: languageSchema,
  default_member_group_id: z.number().int().nullable(),
  /** Every group of the member, the default one included. */
  member_groups: z.array(memberGroupRefSchema),
  credit_quota: z.number().nullable(),
  sso_platform_id: z.number().int().nullable(),
  sso_id: z.string().nullable(),
  sso_user_type: z.string().nullable(),
  custom_fields: z.array(customFieldValueSchema),
  created_at: z.string(),
});
export type AdminMember = z.infer<typeof adminMemberSchema>;

export const ADMIN_MEMBER_ORDERS = ['created_at.desc', 'created_at.asc', 'name.asc', 'name.desc', 'email.asc', 'email.desc'] as const;

/** Spec §7 `GET /admin/members/` filters. */
export const adminMemberListQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  /** Part of the name, the email or a searchable custom field's value (letter case ignored). */
  search_term: z.string().trim().max(200).optional(),
  member_group_id: idTextSchema.optional(),
  member_status: memberStatusSchema.optional(),
  is_admin: queryBoolean.optional(),
  member_type: memberTypeSchema.optional(),
  /** true: members with a connected SSO account; false: members without one. */
  has_sso: queryBoolean.optional(),
  order_by: z.enum(ADMIN_MEMBER_ORDERS).optional(),
});

export const listAdminMembers = defineEndpoint({
  method: 'GET',
  path: '/admin/members/',
  access: 'admin',
  errors: {},
  query: adminMemberListQuerySchema,
  response: paginatedSchema(adminMemberSchema),
  summary: 'Every member of the tenant, searched and filtered (spec §7)',
  tags: ['admin'],
});

export const getAdminMember = defineEndpoint({
  method: 'GET',
  path: '/admin/members/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: adminMemberSchema,
  summary: 'One member of the tenant',
  tags: ['admin'],
});

/** The statuses an admin sets by hand (spec §4 account): others come from sign-up, invitations and requests. */
export const adminMemberStatusChangeSchema = z.enum(['approved', 'deactivated']);

export const adminMemberPatchSchema = z
  .object({
    name: wellFormedText(z.string().trim().min(1).max(100)).optional(),
    default_member_group_id: idSchema.optional(),
    /** Every group of the member; the default group is added when missing. */
    member_group_ids: z.array(idSchema).max(100).optional(),
    /** Any custom field (an admin is not bound by `is_editable`); an empty value clears an optional one. */
    custom_fields: z
      .array(customFieldInputSchema.extend({ value: wellFormedText(z.string().max(1000)) }))
      .max(100)
      .optional(),
    credit_quota: creditQuotaSchema.optional(),
    is_admin: z.boolean().optional(),
    /** Deactivate an approved member (their sessions, chatbots and API keys stop at once) or reactivate one. */
    member_status: adminMemberStatusChangeSchema.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to update' });

export const patchAdminMember = defineEndpoint({
  method: 'PATCH',
  path: '/admin/members/:id/',
  access: 'admin',
  errors: {
    404: ['not_found'],
    409: ['value_already_used'],
    422: ['invalid_field_value', 'invalid_member_group', 'own_account', 'required_field_missing', 'validation_error'],
  },
  params: idParamsSchema,
  body: adminMemberPatchSchema,
  response: adminMemberSchema,
  summary:
    "Edit a member: name, groups, custom fields, credit limit, admin rights, deactivation (422 for one's own admin rights or status, or a status change from pending, invited or rejected)",
  tags: ['admin'],
});

export const deleteAdminMember = defineEndpoint({
  method: 'DELETE',
  path: '/admin/members/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['own_account'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a member (422 for oneself)',
  tags: ['admin'],
});

export const bulkPatchMembers = defineEndpoint({
  method: 'PATCH',
  path: '/admin/members/bulk/',
  access: 'admin',
  errors: { 422: ['own_account'] },
  body: z
    .object({
      member_ids: z.array(idSchema).min(1).max(MEMBER_BULK_MAX),
      /** Monthly credit limit overriding the group's per-member quota; null gives the group's back. */
      credit_quota: creditQuotaSchema.optional(),
      /** Deactivate the approved members among them, or reactivate the deactivated ones. */
      member_status: adminMemberStatusChangeSchema.optional(),
    })
    .strict()
    .refine((b) => b.credit_quota !== undefined || b.member_status !== undefined, { message: 'Nothing to update' }),
  response: z.object({ updated: z.number().int() }),
  summary:
    "Set the members' monthly credit limit, or deactivate or reactivate them (ids of other tenants, and members not in the status changed from, are skipped; 422 for one's own account)",
  tags: ['admin'],
});

export const bulkDeleteMembers = defineEndpoint({
  method: 'POST',
  path: '/admin/members/bulk/delete/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['own_account'] },
  body: z.object({ member_ids: z.array(idSchema).min(1).max(MEMBER_BULK_MAX) }).strict(),
  response: z.object({ deleted: z.number().int() }),
  summary: 'Delete several members: all or none (404 when one is not of the tenant, 422 for oneself)',
  tags: ['admin'],
});

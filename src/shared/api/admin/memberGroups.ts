import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { bilingualNameSchema, idParamsSchema, idTextSchema, isoDateTime, pageQuerySchema, paginatedSchema } from '../common';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';
import { GROUP_NAME_MAX } from '../../domain/memberGroups';
import { hasOneName } from '../../domain/language';

/** Monthly credits; null is no limit. */
const quotaSchema = z.number().min(0).max(1e12).nullable();

/** A member group's names, quotas and member count, as its list and the credit allocation show them. */
export const memberGroupQuotasSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  /** The default group's credit info cannot be changed (spec §5). */
  is_default: z.boolean(),
  /** The group's monthly credit quota (null: no group limit). */
  credit_quota: z.number().nullable(),
  /** Each member's monthly quota unless the member has their own (null: no limit). */
  member_credit_quota: z.number().nullable(),
  member_count: z.number().int(),
});

/** A member group as the admin console shows it (spec §3): names, quotas, member count, usable models. */
export const adminMemberGroupSchema = memberGroupQuotasSchema.extend({
  usable_models: z.array(z.object({ id: z.number().int(), name: z.string(), display_name: z.string() })),
  created_at: isoDateTime,
});
export type AdminMemberGroup = z.infer<typeof adminMemberGroupSchema>;

const groupNameSchema = bilingualNameSchema(GROUP_NAME_MAX);

/** Spec §5 asks both names unique, not both present: a group needs one of them (422 `group_name_required`). */
export const createMemberGroupBodySchema = z
  .object({ ko_name: groupNameSchema.default(''), en_name: groupNameSchema.default('') })
  .strict()
  .refine((body) => hasOneName(body), { message: 'adminGroups:validation.one_name', path: ['ko_name'] });

export const createMemberGroup = defineEndpoint({
  method: 'POST',
  path: '/admin/member-groups/',
  access: 'admin',
  errors: { 404: ['not_found'], 409: ['group_name_taken'], 422: ['invalid_member_group'] },
  body: createMemberGroupBodySchema,
  response: adminMemberGroupSchema,
  summary: 'Create a member group (a Korean or an English name, or both; each unique in the tenant: 409); it starts with the default group’s model permissions',
  tags: ['admin'],
});

export const adminMemberGroupListQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  search_term: z.string().trim().max(200).optional(),
});

export const listAdminMemberGroups = defineEndpoint({
  method: 'GET',
  path: '/admin/member-groups/',
  access: 'admin',
  errors: {},
  query: adminMemberGroupListQuerySchema,
  response: paginatedSchema(adminMemberGroupSchema),
  summary: "The tenant's member groups with member count, quotas and usable models (default group first)",
  tags: ['admin'],
});

/** Each group's credits used this month against its quota (spec §7 `GET /admin/member-groups/usage/`). */
export const memberGroupUsageSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  credit_quota: z.number().nullable(),
  /** Credits the group's members used this month (positive). */
  used: z.number(),
  /** The month counted, `YYYY-MM` (server time). */
  period: z.string(),
});

export const memberGroupUsage = defineEndpoint({
  method: 'GET',
  path: '/admin/member-groups/usage/',
  access: 'admin',
  errors: {},
  response: z.object({ items: z.array(memberGroupUsageSchema) }),
  summary: "Each group's credit usage this month against its quota",
  tags: ['admin'],
});

export const getAdminMemberGroup = defineEndpoint({
  method: 'GET',
  path: '/admin/member-groups/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: adminMemberGroupSchema,
  summary: 'One member group',
  tags: ['admin'],
});

export const patchMemberGroupBodySchema = z
  .object({
    ko_name: groupNameSchema.optional(),
    en_name: groupNameSchema.optional(),
    credit_quota: quotaSchema.optional(),
    member_credit_quota: quotaSchema.optional(),
  })
  .strict();

export const patchMemberGroup = defineEndpoint({
  method: 'PATCH',
  path: '/admin/member-groups/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 409: ['group_name_taken'], 422: ['default_group_locked', 'group_name_required'] },
  params: idParamsSchema,
  body: patchMemberGroupBodySchema,
  response: adminMemberGroupSchema,
  summary:
    'Rename a group or set its credit quotas (409 name in use; 422 `group_name_required` when both names would be empty, `default_group_locked` for the default group’s credit info)',
  tags: ['admin'],
});

export const deleteMemberGroup = defineEndpoint({
  method: 'DELETE',
  path: '/admin/member-groups/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['default_group_locked', 'invalid_member_group'] },
  params: idParamsSchema,
  response: z.object({ ok: z.literal(true), moved_members: z.number().int() }),
  summary: 'Delete a group: its members fall back to the default group (422 for the default group)',
  tags: ['admin'],
});

/** A member of a group, and whether it is their default group. */
export const memberGroupMemberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  is_default_group: z.boolean(),
});
export type MemberGroupMember = z.infer<typeof memberGroupMemberSchema>;

export const listMemberGroupMembers = defineEndpoint({
  method: 'GET',
  path: '/admin/member-groups/:id/members/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  query: pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({ search_term: z.string().trim().max(200).optional() }),
  response: paginatedSchema(memberGroupMemberSchema),
  summary: "A group's members (ours: the spec's group screen lists them; its call is not shown)",
  tags: ['admin'],
});

export const removeMemberGroupMember = defineEndpoint({
  method: 'DELETE',
  path: '/admin/member-groups/:id/members/:memberId/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['default_group_locked', 'invalid_member_group'] },
  params: z.object({ id: idTextSchema, memberId: idTextSchema }),
  response: z.object({ ok: z.literal(true) }),
  summary: 'Take a member out of a group; whose default group it was fall back to the tenant’s default group',
  tags: ['admin'],
});

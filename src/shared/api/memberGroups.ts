import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { pageQuerySchema, paginatedSchema, queryBoolean } from './common';
import { MEMBER_GROUP_ORDERS } from '../domain/memberGroups';

/** A member group of the tenant, as members see it (spec §3): names only, no quotas. */
export const memberGroupSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  /** The tenant's default group: the sign-up form preselects it. */
  is_default: z.boolean(),
});
export type MemberGroup = z.infer<typeof memberGroupSchema>;

export const memberGroupListQuerySchema = pageQuerySchema(100).extend({
  is_default: queryBoolean.optional(),
  search_term: z.string().trim().max(200).optional(),
  /** `name.*` sorts by the English name, else the Korean one; absent: the default group first, then by name. */
  order_by: z.enum(MEMBER_GROUP_ORDERS).optional(),
});

/**
 * `GET /member-groups/` (spec §7), for sign-up and for sharing a chatbot. Public: the sign-up form
 * picks the default group before anyone is signed in (spec §6 lists sign-up among the calls made
 * without a token). Names only; quotas and members stay behind /admin/.
 */
export const listMemberGroups = defineEndpoint({
  method: 'GET',
  path: '/member-groups/',
  access: 'public',
  errors: {},
  query: memberGroupListQuerySchema,
  response: paginatedSchema(memberGroupSchema),
  summary: "The tenant's member groups (names and is_default): default group first unless order_by (name.asc|desc, created_at.asc|desc)",
  tags: ['members'],
});

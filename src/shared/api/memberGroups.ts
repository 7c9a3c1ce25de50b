import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { paginatedSchema, pageQuerySchema, queryBoolean } from './common';

export const memberGroupSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  /** The tenant's default group: the sign-up form preselects it. */
  is_default: z.boolean(),
});
export type MemberGroup = z.infer<typeof memberGroupSchema>;

export const listMemberGroupsQuerySchema = pageQuerySchema(100).extend({
  is_default: queryBoolean.optional(),
  search_term: z.string().max(100).optional(),
});

/**
 * Public: the sign-up form picks the default group before anyone is signed in (spec §6 lists sign-up
 * among the calls made without a token). Names only; quotas and members stay behind /admin/.
 */
export const listMemberGroups = defineEndpoint({
  method: 'GET',
  path: '/member-groups/',
  access: 'public',
  query: listMemberGroupsQuerySchema,
  response: paginatedSchema(memberGroupSchema),
  summary: "The tenant's member groups (names and is_default)",
  tags: ['member-groups'],
});

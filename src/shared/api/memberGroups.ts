import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { pageQuerySchema, paginatedSchema, queryBoolean } from './common';

/** A member group of the tenant, as members see it (spec §3): names only, no quotas. */
export const memberGroupSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  is_default: z.boolean(),
});
export type MemberGroup = z.infer<typeof memberGroupSchema>;

/** `GET /member-groups/` (spec §7): the tenant's groups, for sign-up and for sharing a chatbot. */
export const memberGroupListQuerySchema = pageQuerySchema(100).extend({
  is_default: queryBoolean.optional(),
  search_term: z.string().trim().max(200).optional(),
});

export const listMemberGroups = defineEndpoint({
  method: 'GET',
  path: '/member-groups/',
  access: 'member',
  query: memberGroupListQuerySchema,
  response: paginatedSchema(memberGroupSchema),
  summary: "The tenant's member groups (names), default group first",
  tags: ['members'],
});

import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema } from './common';

const groupChoiceSchema = z.object({
  default_member_group_id: z.number().int().positive(),
  /** Every group the member would belong to; must contain the default one. */
  member_group_ids: z.array(z.number().int().positive()).min(1).max(100),
});

/**
 * A member's groups on My page: the ones they are in, their pending group-change request (at most
 * one), and every group of the tenant (names in Korean and English, spec §3) to choose from.
 */
export const memberGroupsStateSchema = z.object({
  current: z.object({ default_member_group_id: z.number().int().nullable(), member_group_ids: z.array(z.number().int()) }),
  pending: groupChoiceSchema.extend({ created_at: z.string() }).nullable(),
  groups: z.array(z.object({ id: z.number().int(), ko_name: z.string(), en_name: z.string() })),
  /** The tenant's setting: a change waits for an administrator (true) or applies at once. */
  approval_required: z.boolean(),
});
export type MemberGroupsState = z.infer<typeof memberGroupsStateSchema>;

export const getMemberGroups = defineEndpoint({
  method: 'GET',
  path: '/members/:id/groups/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  response: memberGroupsStateSchema,
  summary: 'The member’s groups, pending group-change request and the groups to choose from (oneself unless admin)',
  tags: ['members'],
});

export const requestGroupChange = defineEndpoint({
  method: 'PATCH',
  path: '/members/:id/group/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'], 422: ['invalid_member_group', 'validation_error'] },
  params: idParamsSchema,
  body: groupChoiceSchema,
  response: memberGroupsStateSchema,
  summary: 'Change one’s groups: a pending request an admin approves (replaces an earlier one), or at once when the tenant does not require approval',
  tags: ['members'],
});

export const withdrawGroupChange = defineEndpoint({
  method: 'DELETE',
  path: '/members/:id/group-queues/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  response: memberGroupsStateSchema,
  summary: 'Withdraw one’s pending group-change request',
  tags: ['members'],
});

import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, idSchema, pageQuerySchema, paginatedSchema } from '../common';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';
import { MEMBER_BULK_MAX, memberGroupRefSchema, memberTypeSchema, wellFormedText } from './members';

/** Spec §4 "Member requests": a new registration or a group change. */
export const MEMBER_REQUEST_TYPES = ['registration', 'group_update'] as const;
export const memberRequestTypeSchema = z.enum(MEMBER_REQUEST_TYPES);

/** One pending request; a member has at most one, so the member's id names it. */
export const memberRequestSchema = z.object({
  member_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  member_type: memberTypeSchema,
  request_type: memberRequestTypeSchema,
  requested_default_member_group_id: z.number().int().nullable(),
  /** The groups asked for, the default one included. */
  requested_groups: z.array(memberGroupRefSchema),
  /** The groups the member has now (none for a new registration). */
  current_groups: z.array(memberGroupRefSchema),
  requested_at: z.string(),
});
export type MemberRequest = z.infer<typeof memberRequestSchema>;

export const memberRequestListQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  request_type: memberRequestTypeSchema.optional(),
  /** Part of the requester's name or email. */
  search_term: z.string().trim().max(200).optional(),
});

export const listMemberRequests = defineEndpoint({
  method: 'GET',
  path: '/admin/member-requests/',
  access: 'admin',
  errors: {},
  query: memberRequestListQuerySchema,
  response: paginatedSchema(memberRequestSchema),
  summary: 'Pending member requests (new registrations and group changes), oldest first',
  tags: ['admin'],
});

export const REQUEST_REASON_MAX = 2000;
/** Rejecting needs a reason (spec §5; 422 `reason_required` when empty), mailed to the requester. */
export const processPendingRequestBodySchema = z
  .object({ approve: z.boolean(), reason: wellFormedText(z.string().trim().max(REQUEST_REASON_MAX)).optional() })
  .strict();

export const processPendingRequestResponseSchema = z.object({ member_status: z.enum(['approved', 'rejected']), request_type: memberRequestTypeSchema });

/** Spec §7: approve or reject a member's pending request (rejection mails the reason). */
export const processPendingRequest = defineEndpoint({
  method: 'POST',
  path: '/admin/members/:id/process-pending-request/',
  access: 'admin',
  errors: { 402: ['member_limit_reached'], 404: ['not_found'], 422: ['reason_required'] },
  params: idParamsSchema,
  body: processPendingRequestBodySchema,
  response: processPendingRequestResponseSchema,
  summary: "Approve or reject a member's pending registration or group change (402 over the plan's member limit, 404 nothing pending, 422 no reason)",
  tags: ['admin'],
});

export const bulkProcessPendingRequests = defineEndpoint({
  method: 'POST',
  path: '/admin/members/bulk/process-pending-request/',
  access: 'admin',
  errors: { 402: ['member_limit_reached'], 404: ['not_found'], 422: ['reason_required'] },
  body: processPendingRequestBodySchema.extend({ member_ids: z.array(idSchema).min(1).max(MEMBER_BULK_MAX) }).strict(),
  response: z.object({ processed: z.number().int() }),
  summary: 'Approve or reject several pending requests: all or none (404 when one has nothing pending)',
  tags: ['admin'],
});

import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema } from '../common';

export const processPendingRequestBodySchema = z
  .object({ approve: z.boolean(), reason: z.string().trim().max(2000).optional() })
  .refine((b) => b.approve || Boolean(b.reason), { message: 'Please provide a reason for the requester.', path: ['reason'] });

export const processPendingRequestResponseSchema = z.object({ member_status: z.enum(['approved', 'rejected']) });

/** Spec §7: approve or reject a member's pending registration (rejection mails the reason). */
export const processPendingRequest = defineEndpoint({
  method: 'POST',
  path: '/admin/members/:id/process-pending-request/',
  access: 'admin',
  params: idParamsSchema,
  body: processPendingRequestBodySchema,
  response: processPendingRequestResponseSchema,
  summary: "Approve or reject a member's pending registration",
  tags: ['admin'],
});

import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, idSchema, idTextSchema, pageQuerySchema, paginatedSchema, queryBoolean } from '../common';
import { chatbotOrderSchema, chatbotSchema } from '../chatbots';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';

/** A chatbot as the publishing review shows it: the chatbot, its author's email and the groups it is shared with. */
export const adminChatbotSchema = chatbotSchema.extend({
  creator_email: z.string().nullable(),
  member_groups: z.array(z.object({ id: z.number().int(), ko_name: z.string(), en_name: z.string() })),
});
export type AdminChatbot = z.infer<typeof adminChatbotSchema>;

/**
 * Spec §7 admin chatbots. `member_id`: the chatbots that member can see. Default chatbots (the
 * tenant's own) are listed only with `is_default=true`, for the console's default chatbots screen.
 */
export const adminChatbotListQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  is_default: queryBoolean.optional(),
  waiting_publish: queryBoolean.optional(),
  is_public: queryBoolean.optional(),
  publish_rejected: queryBoolean.optional(),
  order_by: chatbotOrderSchema.optional(),
  creator_id: idTextSchema.optional(),
  category_id: idTextSchema.optional(),
  search_term: z.string().trim().max(200).optional(),
  member_id: idTextSchema.optional(),
});

export const listAdminChatbots = defineEndpoint({
  method: 'GET',
  path: '/admin/chatbots/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  query: adminChatbotListQuerySchema,
  response: paginatedSchema(adminChatbotSchema),
  summary: 'Every member chatbot of the tenant, for the publishing review (filters of spec §7); or, with is_default=true, its default chatbots',
  tags: ['admin'],
});

/** Spec §5: rejecting needs a reason, which is mailed to the author. */
export const REJECTION_REASON_MAX = 2000;
export const publishDecisionSchema = z
  .object({
    approve: z.boolean(),
    reason: z.string().trim().max(REJECTION_REASON_MAX).optional(),
  })
  .strict();

export const processPublishRequest = defineEndpoint({
  method: 'POST',
  path: '/admin/chatbots/:id/process-publish-request/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['reason_required'] },
  params: idParamsSchema,
  body: publishDecisionSchema,
  response: adminChatbotSchema,
  summary: 'Approve (public in the Store) or reject (with a reason mailed to the author) a publish request. 404 not waiting, 422 no reason',
  tags: ['admin'],
});

export const bulkProcessPublishRequests = defineEndpoint({
  method: 'POST',
  path: '/admin/chatbots/bulk-process-publish-request/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['reason_required'] },
  body: publishDecisionSchema.extend({ chatbot_ids: z.array(idSchema).min(1).max(100) }).strict(),
  response: z.object({ processed: z.number().int() }),
  summary: 'Approve or reject several publish requests at once: all or none (404 when one is not waiting)',
  tags: ['admin'],
});

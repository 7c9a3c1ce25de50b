import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idTextSchema, isoDateTime, pageQuerySchema, paginatedSchema } from '../common';
import { feedbackCountsSchema } from '../feedback';
import { feedbackRatingSchema, feedbackReasonSchema } from '../sessions';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';

/** A rating as the console shows it: who gave it, on which chatbot and model, and the shared chat when there is one. */
export const adminFeedbackSchema = z.object({
  id: z.number().int(),
  rating: feedbackRatingSchema,
  reason: feedbackReasonSchema.nullable(),
  comment: z.string().nullable(),
  member: z.object({ id: z.number().int(), name: z.string() }),
  chatbot: z.object({ id: z.number().int(), ko_name: z.string(), en_name: z.string() }),
  /** The model that wrote the answer; null when it was deleted since. */
  model: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The session's hash when its owner shares it publicly (the console links to it); null otherwise, and no link. */
  shared_session_hash: z.string().nullable(),
  updated_at: isoDateTime,
});
export type AdminFeedback = z.infer<typeof adminFeedbackSchema>;

const instant = z.iso.datetime({ offset: true });

export const adminFeedbackQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  chatbot_id: idTextSchema.optional(),
  llm_model_id: idTextSchema.optional(),
  /** The list only; the summary counts both. */
  rating: feedbackRatingSchema.optional(),
  /** Rated (or last changed) from this instant on (the client sends the start of the admin's local day). */
  from: instant.optional(),
  /** Before this instant (the client sends the start of the day after the admin's last day). */
  to: instant.optional(),
});
export type AdminFeedbackQuery = z.input<typeof adminFeedbackQuerySchema>;

/**
 * The counts for the chosen chatbot, model and period. Each breakdown leaves out its own filter,
 * so it keeps listing the others to choose from: `by_chatbot` counts every chatbot for the chosen
 * model, `by_model` every model for the chosen chatbot.
 */
export const feedbackSummarySchema = z.object({
  totals: feedbackCountsSchema,
  by_chatbot: z.array(feedbackCountsSchema.extend({ chatbot: adminFeedbackSchema.shape.chatbot })),
  by_model: z.array(feedbackCountsSchema.extend({ model: z.object({ id: z.number().int(), name: z.string() }) })),
});
export type FeedbackSummary = z.infer<typeof feedbackSummarySchema>;

export const adminFeedbackPageSchema = paginatedSchema(adminFeedbackSchema).extend({ summary: feedbackSummarySchema });
export type AdminFeedbackPage = z.infer<typeof adminFeedbackPageSchema>;

export const listFeedback = defineEndpoint({
  method: 'GET',
  path: '/admin/feedback/',
  access: 'admin',
  errors: {},
  query: adminFeedbackQuerySchema,
  response: adminFeedbackPageSchema,
  summary: "Members' ratings of the tenant's answers, newest first, with up and down counts per chatbot and per model",
  tags: ['admin'],
});

import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, idTextSchema, isoDateTime, okSchema, pageQuerySchema, paginatedSchema } from './common';
import { answerFeedbackSchema, feedbackRatingSchema, feedbackReasonSchema, hashParamsSchema } from './sessions';
import { CREATOR_FEEDBACK_PAGE_SIZE, FEEDBACK_COMMENT_MAX } from '../domain/feedback';

const commentSchema = z.string().trim().min(1).max(FEEDBACK_COMMENT_MAX);

/**
 * Up takes nothing else; down may say why, and `other` says it in the member's words (a comment is
 * required with it). Sending again replaces the rating.
 */
export const rateAnswerBodySchema = z.discriminatedUnion('rating', [
  z.object({ rating: z.literal('up') }).strict(),
  z
    .object({ rating: z.literal('down'), reason: feedbackReasonSchema.optional(), comment: commentSchema.optional() })
    .strict()
    .refine((body) => body.reason !== 'other' || body.comment !== undefined, { message: 'Say why in a comment.', path: ['comment'] }),
]);
export type RateAnswerBody = z.input<typeof rateAnswerBodySchema>;

export const answerParamsSchema = hashParamsSchema.extend({ id: idTextSchema });

export const rateAnswer = defineEndpoint({
  method: 'POST',
  path: '/sessions/:hash/messages/:id/feedback/',
  access: 'member',
  errors: { 404: ['not_found'], 409: ['answer_not_finished'] },
  params: answerParamsSchema,
  body: rateAnswerBodySchema,
  response: answerFeedbackSchema,
  summary:
    'Rate an answer of one of the member’s sessions up or down (down with an optional reason); sending again changes it. 404 for anything but a chatbot answer of their own chats, 409 while it is still being written',
  tags: ['sessions'],
});

export const removeAnswerFeedback = defineEndpoint({
  method: 'DELETE',
  path: '/sessions/:hash/messages/:id/feedback/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: answerParamsSchema,
  response: okSchema,
  summary: 'Take back the member’s rating of an answer (nothing happens when there was none)',
  tags: ['sessions'],
});

/** Up and down counts. */
export const feedbackCountsSchema = z.object({ up: z.number().int(), down: z.number().int() });
export type FeedbackCounts = z.infer<typeof feedbackCountsSchema>;

/**
 * A rating as the chatbot's creator sees it: what was said, never who said it nor the chat
 * (docs/decisions/0078-answer-feedback.md).
 */
export const creatorFeedbackSchema = z.object({
  id: z.number().int(),
  rating: feedbackRatingSchema,
  reason: feedbackReasonSchema.nullable(),
  comment: z.string().nullable(),
  /** The model that wrote the answer; null when it was deleted since. */
  model_name: z.string().nullable(),
  updated_at: isoDateTime,
});
export type CreatorFeedback = z.infer<typeof creatorFeedbackSchema>;

export const chatbotFeedbackPageSchema = paginatedSchema(creatorFeedbackSchema).extend({
  /** Every rating of the chatbot, whatever the page. */
  totals: feedbackCountsSchema,
});
export type ChatbotFeedbackPage = z.infer<typeof chatbotFeedbackPageSchema>;

export const getChatbotFeedback = defineEndpoint({
  method: 'GET',
  path: '/chatbots/:id/feedback/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  query: pageQuerySchema(CREATOR_FEEDBACK_PAGE_SIZE),
  response: chatbotFeedbackPageSchema,
  summary:
    'Members’ ratings of a chatbot’s answers for its author (or an admin): up and down counts and the latest ratings with their reasons and comments, without names or links',
  tags: ['chatbots'],
});

/** Members' ratings of chat answers (issue 23, docs/decisions/0078-answer-feedback.md). */
import { index, integer, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { FEEDBACK_RATINGS, FEEDBACK_REASONS } from '../../../shared/domain/feedback';
import { sessionMessages } from './chat';
import { chatbots, llmModels } from './chatbots';
import { createdAt, id, updatedAt } from './columns';
import { memberId } from './members';
import { tenantId } from './tenants';

export const feedbackRatingEnum = pgEnum('feedback_rating', FEEDBACK_RATINGS);
export const feedbackReasonEnum = pgEnum('feedback_reason', FEEDBACK_REASONS);

/**
 * One rating per answer: only the session's member rates it, so the answer is the key. The chatbot
 * and the model are kept as they were when the answer was written (a session may move to another
 * chatbot later), which is what the console and the Studio count by.
 */
export const answerFeedback = pgTable(
  'answer_feedback',
  {
    id: id(),
    tenantId: tenantId(),
    messageId: integer('message_id')
      .notNull()
      .unique()
      .references(() => sessionMessages.id, { onDelete: 'cascade' }),
    memberId: memberId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    llmModelId: integer('llm_model_id').references(() => llmModels.id, { onDelete: 'set null' }),
    rating: feedbackRatingEnum('rating').notNull(),
    reason: feedbackReasonEnum('reason'),
    comment: text('comment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('answer_feedback_tenant_idx').on(t.tenantId, t.updatedAt), index('answer_feedback_chatbot_idx').on(t.chatbotId, t.updatedAt)],
);

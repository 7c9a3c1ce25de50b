import { and, eq, inArray } from 'drizzle-orm';
import type { AnswerFeedback } from '../../../shared/api/sessions';
import type { Queryable } from '../../db/client';
import { answerFeedback } from '../../db/schema';

export const toAnswerFeedbackDto = (row: Pick<typeof answerFeedback.$inferSelect, 'rating' | 'reason' | 'comment' | 'updatedAt'>): AnswerFeedback => ({
  rating: row.rating,
  reason: row.reason,
  comment: row.comment,
  updated_at: row.updatedAt.toISOString(),
});

/** The ratings of the given answers, by message id (only their session's member rates them, so they are that member's). */
export async function feedbackOfMessages(q: Queryable, tenantId: number, messageIds: number[]): Promise<Map<number, AnswerFeedback>> {
  if (messageIds.length === 0) return new Map();
  const rows = await q
    .select()
    .from(answerFeedback)
    .where(and(eq(answerFeedback.tenantId, tenantId), inArray(answerFeedback.messageId, messageIds)));
  return new Map(rows.map((row) => [row.messageId, toAnswerFeedbackDto(row)]));
}

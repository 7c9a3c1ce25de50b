/**
 * Feedback on answers (issue 23, docs/decisions/0078-answer-feedback.md): a member rates the
 * answers of their own chats; admins read every rating of the tenant, a chatbot's author those of
 * their chatbot without names or links.
 */
import { type SQL, and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminFeedback, AdminFeedbackPage, adminFeedbackQuerySchema } from '../../../shared/api/admin/feedback';
import type { ChatbotFeedbackPage, RateAnswerBody } from '../../../shared/api/feedback';
import type { AnswerFeedback } from '../../../shared/api/sessions';
import { toAnswerFeedbackDto } from './answerFeedback';
import type { Queryable } from '../../db/client';
import type { MemberRow, SessionMessageRow } from '../../db/rows';
import { answerFeedback, chatbots, llmModels, members, sessionMessages, sessions } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { paginate } from '../../shared/pagination';
import { findOwnSession } from '../sessions/service';
import { findEditableChatbot } from '../studio/service';

/**
 * A chatbot answer of the member's own chat; 404 for anything else: another member's or tenant's
 * session, a member message, a Studio test chat (its author trying the chatbot out is not a member's
 * verdict on it).
 */
async function findOwnAnswer(q: Queryable, member: MemberRow, hash: string, messageId: number) {
  const session = await findOwnSession(q, member, hash);
  if (session.isTest) throw notFound('The answer does not exist.');
  const [message] = await q
    .select()
    .from(sessionMessages)
    .where(
      and(
        eq(sessionMessages.tenantId, member.tenantId),
        eq(sessionMessages.sessionId, session.id),
        eq(sessionMessages.id, messageId),
        eq(sessionMessages.speakerType, 'chatbot'),
      ),
    );
  if (!message) throw notFound('The answer does not exist.');
  return { session, message };
}

const notFinished = (message: SessionMessageRow) =>
  message.streaming ? new AppError(409, 'answer_not_finished', 'The answer is still being written; rate it once it is finished.') : null;

/** Rates an answer, or changes its rating: one per answer, the last one counts. */
export async function rateAnswer(q: Queryable, member: MemberRow, hash: string, messageId: number, body: RateAnswerBody): Promise<AnswerFeedback> {
  const { session, message } = await findOwnAnswer(q, member, hash, messageId);
  const refusal = notFinished(message);
  if (refusal) throw refusal;
  const verdict = {
    rating: body.rating,
    reason: body.rating === 'down' ? (body.reason ?? null) : null,
    comment: body.rating === 'down' ? (body.comment ?? null) : null,
  };
  const [row] = await q
    .insert(answerFeedback)
    .values({ tenantId: member.tenantId, messageId: message.id, memberId: member.id, chatbotId: session.chatbotId, llmModelId: message.llmModelId, ...verdict })
    .onConflictDoUpdate({ target: answerFeedback.messageId, set: { ...verdict, updatedAt: sql`now()` } })
    .returning();
  return toAnswerFeedbackDto(row!);
}

/** Takes a rating back; an answer without one stays without. */
export async function removeFeedback(q: Queryable, member: MemberRow, hash: string, messageId: number): Promise<void> {
  const { message } = await findOwnAnswer(q, member, hash, messageId);
  await q.delete(answerFeedback).where(and(eq(answerFeedback.tenantId, member.tenantId), eq(answerFeedback.messageId, message.id)));
}

const upCount = sql<number>`count(*) filter (where ${answerFeedback.rating} = 'up')`.mapWith(Number);
const downCount = sql<number>`count(*) filter (where ${answerFeedback.rating} = 'down')`.mapWith(Number);

/** Newest first: the last change of a rating is when it was given. */
const newestFirst = [desc(answerFeedback.updatedAt), desc(answerFeedback.id)];

/** `GET /chatbots/{id}/feedback/`: what the chatbot's author (or an admin) may read of its ratings. */
export async function chatbotFeedback(q: Queryable, member: MemberRow, chatbotId: number, page: { page: number; size: number }): Promise<ChatbotFeedbackPage> {
  const chatbot = await findEditableChatbot(q, member, chatbotId);
  const where = and(eq(answerFeedback.tenantId, member.tenantId), eq(answerFeedback.chatbotId, chatbot.id));
  const [totals] = await q.select({ up: upCount, down: downCount }).from(answerFeedback).where(where);
  const list = await paginate(page, {
    count: async () => (totals?.up ?? 0) + (totals?.down ?? 0),
    rows: ({ limit, offset }) =>
      q
        .select({ feedback: answerFeedback, modelName: llmModels.displayName })
        .from(answerFeedback)
        .leftJoin(llmModels, eq(llmModels.id, answerFeedback.llmModelId))
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
    toItems: (rows) =>
      rows.map(({ feedback, modelName }) => ({
        id: feedback.id,
        rating: feedback.rating,
        reason: feedback.reason,
        comment: feedback.comment,
        model_name: modelName,
        updated_at: feedback.updatedAt.toISOString(),
      })),
  });
  return { ...list, totals: { up: totals?.up ?? 0, down: totals?.down ?? 0 } };
}

type AdminQuery = z.output<typeof adminFeedbackQuerySchema>;

/** The console's filters; `leaveOut` drops one (each breakdown keeps listing what its own filter would choose from). */
function adminFilters(tenantId: number, query: AdminQuery, leaveOut?: 'chatbot' | 'model'): SQL {
  return and(
    eq(answerFeedback.tenantId, tenantId),
    query.chatbot_id === undefined || leaveOut === 'chatbot' ? undefined : eq(answerFeedback.chatbotId, query.chatbot_id),
    query.llm_model_id === undefined || leaveOut === 'model' ? undefined : eq(answerFeedback.llmModelId, query.llm_model_id),
    query.from === undefined ? undefined : gte(answerFeedback.updatedAt, new Date(query.from)),
    query.to === undefined ? undefined : lt(answerFeedback.updatedAt, new Date(query.to)),
  )!;
}

/** `GET /admin/feedback/`: the tenant's ratings, newest first, and their counts per chatbot and per model. */
export async function listFeedback(q: Queryable, tenantId: number, query: AdminQuery): Promise<AdminFeedbackPage> {
  const counted = adminFilters(tenantId, query);
  const listed = and(counted, query.rating === undefined ? undefined : eq(answerFeedback.rating, query.rating));
  const [[totals], byChatbot, byModel] = await Promise.all([
    q.select({ up: upCount, down: downCount }).from(answerFeedback).where(counted),
    q
      .select({ id: chatbots.id, koName: chatbots.koName, enName: chatbots.enName, up: upCount, down: downCount })
      .from(answerFeedback)
      .innerJoin(chatbots, eq(chatbots.id, answerFeedback.chatbotId))
      .where(adminFilters(tenantId, query, 'chatbot'))
      .groupBy(chatbots.id)
      .orderBy(desc(count()), chatbots.id),
    q
      .select({ id: llmModels.id, name: llmModels.displayName, up: upCount, down: downCount })
      .from(answerFeedback)
      .innerJoin(llmModels, eq(llmModels.id, answerFeedback.llmModelId))
      .where(adminFilters(tenantId, query, 'model'))
      .groupBy(llmModels.id)
      .orderBy(desc(count()), llmModels.id),
  ]);
  const list = await paginate(query, {
    count: async () => (await q.select({ value: count() }).from(answerFeedback).where(listed))[0]?.value ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select({
          feedback: answerFeedback,
          memberName: members.name,
          chatbot: { id: chatbots.id, koName: chatbots.koName, enName: chatbots.enName },
          modelName: llmModels.displayName,
          sessionHash: sessions.hashId,
          sessionIsPublic: sessions.isPublic,
        })
        .from(answerFeedback)
        .innerJoin(members, eq(members.id, answerFeedback.memberId))
        .innerJoin(chatbots, eq(chatbots.id, answerFeedback.chatbotId))
        .innerJoin(sessionMessages, eq(sessionMessages.id, answerFeedback.messageId))
        .innerJoin(sessions, eq(sessions.id, sessionMessages.sessionId))
        .leftJoin(llmModels, eq(llmModels.id, answerFeedback.llmModelId))
        .where(listed)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
    toItems: (rows) =>
      rows.map((row): AdminFeedback => ({
        id: row.feedback.id,
        rating: row.feedback.rating,
        reason: row.feedback.reason,
        comment: row.feedback.comment,
        member: { id: row.feedback.memberId, name: row.memberName },
        chatbot: { id: row.chatbot.id, ko_name: row.chatbot.koName, en_name: row.chatbot.enName },
        model: row.feedback.llmModelId === null || row.modelName === null ? null : { id: row.feedback.llmModelId, name: row.modelName },
        // Only what its owner shares is linked: the console does not open members' private chats.
        shared_session_hash: row.sessionIsPublic ? row.sessionHash : null,
        updated_at: row.feedback.updatedAt.toISOString(),
      })),
  });
  return {
    ...list,
    summary: {
      totals: { up: totals?.up ?? 0, down: totals?.down ?? 0 },
      by_chatbot: byChatbot.map(({ id, koName, enName, up, down }) => ({ chatbot: { id, ko_name: koName, en_name: enName }, up, down })),
      by_model: byModel.map(({ id, name, up, down }) => ({ model: { id, name }, up, down })),
    },
  };
}

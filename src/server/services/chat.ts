import { type ModelMessage, streamText } from 'ai';
import { type SQL, and, asc, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChatFrame, ChatMeta, chatBodySchema } from '../../shared/api/chat';
import { RECENT_CHATBOTS_KEPT } from '../../shared/domain/pagination';
import type { Database, Transaction } from '../db/client';
import { chatbots, files, recentChatbots, restrictedWords, sessionMessages, sessions, taskModes, usageRecords } from '../db/schema';
import { AppError, notFound } from '../errors';
import type { LlmRegistry } from '../llm/registry';
import { estimateTokens } from '../../shared/domain/tokens';
import type { ChatbotRow, LlmModelRow, MemberRow, SessionRow, TenantRow } from '../db/rows';
import { creditsDepleted, isDepleted, isFreeModel, messageCost, releaseAbandonedReservations, reserveCredits, settleCredits } from './credits';
import { findSendTarget } from './sendContext';
import { findOwnSession, newHashId } from './sessions';
import { saveTurnStart } from './turnStart';

type ChatBody = z.output<typeof chatBodySchema>;

/** Output tokens reserved up front; the settlement corrects it to what the model really produced. */
const RESERVED_OUTPUT_TOKENS = 1024;

/** The logger calls the service makes; a Fastify request logger fits. */
export interface ChatLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ChatDeps {
  db: Database;
  llm: LlmRegistry;
  log: ChatLog;
}

/** A send that passed every check known before streaming; nothing is saved yet. */
export interface CheckedSend {
  tenant: TenantRow;
  member: MemberRow;
  chatbot: ChatbotRow;
  model: LlmModelRow;
  /** The session sent to, or null when this send starts one. */
  existing: SessionRow | null;
  text: string;
  fileIds: number[];
  sessionTitle: string | null;
  /** Chatbot instructions, plus the chosen task mode's. */
  system: string;
  messages: ModelMessage[];
  estimatedInputTokens: number;
  /** Credits to reserve before streaming; 0 for a free model. */
  reserved: number;
  isTest: boolean;
}

/** An opened turn: session, member message and answer placeholder saved, credits reserved. */
export interface ChatTurn extends CheckedSend {
  session: SessionRow;
  memberGroupId: number | null;
  meta: ChatMeta;
  reservation: { id: number; amount: number } | null;
}

async function findRestrictedTerms(db: Database, tenantId: number, text: string): Promise<string[]> {
  const words = await db.select({ word: restrictedWords.word }).from(restrictedWords).where(eq(restrictedWords.tenantId, tenantId));
  const haystack = text.toLocaleLowerCase();
  return words.map((row) => row.word).filter((word) => word && haystack.includes(word.toLocaleLowerCase()));
}

async function historyMessages(db: Database, sessionId: number): Promise<ModelMessage[]> {
  const rows = await db
    .select({ speaker: sessionMessages.speakerType, text: sessionMessages.text })
    .from(sessionMessages)
    .where(eq(sessionMessages.sessionId, sessionId))
    .orderBy(asc(sessionMessages.id));
  return rows
    .filter((row) => row.text.trim() !== '')
    .map((row) => (row.speaker === 'member' ? { role: 'user', content: row.text } : { role: 'assistant', content: row.text }));
}

const messageText = (message: ModelMessage) => (typeof message.content === 'string' ? message.content : '');

/**
 * Checks a send against the rules known before streaming (spec §8 chat errors: 422 empty or
 * restricted term, 404 unknown chatbot, file, task mode or session, 403 model not allowed, 413 over
 * the context limit, 402 for a paid model that costs nothing when credits are depleted). Reads only.
 */
export async function checkSend(db: Database, tenant: TenantRow, member: MemberRow, chatbotId: number, body: ChatBody): Promise<CheckedSend> {
  const text = body.text.trim();
  if (!text && body.file_ids.length === 0) throw new AppError(422, 'message_empty', 'A message needs text or an image.');

  const { chatbot, model, mayUseModel } = await findSendTarget(db, member, chatbotId);

  const fileIds = [...new Set(body.file_ids)];
  if (fileIds.length > 0) {
    const owned = await db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.tenantId, tenant.id), eq(files.memberId, member.id), inArray(files.id, fileIds)));
    if (owned.length !== fileIds.length) throw notFound('An attached file does not exist.');
  }

  const terms = await findRestrictedTerms(db, tenant.id, text);
  if (terms.length > 0) throw new AppError(422, 'restricted_term', 'The message contains a restricted term.', { terms });

  if (!mayUseModel) {
    throw new AppError(403, 'model_not_allowed', 'Your member group may not use this model.');
  }

  const taskMode = body.task_mode_id
    ? (await db.select().from(taskModes).where(and(eq(taskModes.tenantId, tenant.id), eq(taskModes.id, body.task_mode_id))))[0]
    : undefined;
  if (body.task_mode_id && !taskMode) throw notFound('The task mode does not exist.');
  const system = [chatbot.systemInstructions, taskMode?.instructions ?? ''].filter((part) => part.trim() !== '').join('\n\n');

  const existing = body.session_hash_id ? await findOwnSession(db, member, body.session_hash_id) : null;
  if (existing && existing.chatbotId !== chatbot.id) throw notFound('The session does not exist.');

  const messages: ModelMessage[] = [...(existing ? await historyMessages(db, existing.id) : []), { role: 'user', content: text }];
  const estimatedInputTokens = estimateTokens(system) + messages.reduce((sum, m) => sum + estimateTokens(messageText(m)), 0);
  if (estimatedInputTokens > model.contextLimit) {
    throw new AppError(413, 'input_too_long', 'The input exceeds the model’s limit. Please split your question.', {
      estimated_tokens: estimatedInputTokens,
      context_limit: model.contextLimit,
    });
  }

  const free = isFreeModel(model, tenant);
  const reserved = free ? 0 : messageCost(model, { inputTokens: estimatedInputTokens, outputTokens: RESERVED_OUTPUT_TOKENS });
  // A paid model that costs nothing still needs credits left; anything to reserve is checked with its reservation (openTurn).
  if (!free && reserved === 0 && (await isDepleted(db, member))) throw creditsDepleted();

  return {
    tenant,
    member,
    chatbot,
    model,
    existing,
    text,
    fileIds,
    sessionTitle: body.session_title?.trim() || null,
    system,
    messages,
    estimatedInputTokens,
    reserved,
    isTest: body.is_test,
  };
}

/**
 * Opens the turn of a checked send: one short transaction creates the session on the first message
 * and saves the member's message and a placeholder for the answer, and then the estimated cost is
 * reserved (402 when depleted takes the send back out).
 */
export async function openTurn(db: Database, send: CheckedSend): Promise<ChatTurn> {
  const { tenant, member, chatbot, model, existing, text, fileIds } = send;
  const saved = await saveTurnStart(
    db,
    existing ?? { tenantId: tenant.id, hashId: newHashId(), chatbotId: chatbot.id, memberId: member.id, title: send.sessionTitle, lastChatAt: new Date() },
    { tenantId: tenant.id, text, modelId: model.id, fileIds },
  );
  const { session } = saved;
  // After that transaction, as a statement of its own: it locks balance rows every send of the
  // tenant needs (see reserveCredits). A refused or failed reservation takes the send back out.
  let reservation: ChatTurn['reservation'] = null;
  if (send.reserved > 0) {
    try {
      reservation = await reserveCredits(db, member, send.reserved, saved.answerId);
    } catch (error) {
      await db.transaction(async (tx) => {
        await tx.delete(sessionMessages).where(inArray(sessionMessages.id, [saved.memberMessageId, saved.answerId]));
        if (!existing) await tx.delete(sessions).where(eq(sessions.id, session.id));
      });
      throw error;
    }
  }
  return {
    ...send,
    session,
    memberGroupId: member.defaultMemberGroupId,
    meta: {
      session_hash_id: session.hashId,
      session_created: !existing,
      member_message_id: saved.memberMessageId,
      chatbot_message_id: saved.answerId,
      model: model.name,
    },
    reservation,
  };
}

interface StreamOutcome {
  text: string;
  inputTokens: number;
  outputTokens: number;
  finishReason: 'stop' | 'length' | 'aborted' | 'error';
}

/**
 * The answer of an opened turn as frames: the model's deltas as they arrive, then `usage`, an
 * `error` when the model failed, and `end`. Aborting `signal` (the client went away: stop, a new
 * send) aborts the upstream call; whatever was streamed is saved either way, with `interrupted`
 * telling why. The consumer must read to the end even after the client is gone, since the last
 * step saves the answer.
 */
export async function* streamAnswer(deps: ChatDeps, turn: ChatTurn, signal: AbortSignal): AsyncGenerator<ChatFrame, void, undefined> {
  const { outcome, failure } = yield* modelFrames(deps, turn, signal);
  if (failure) deps.log.warn({ err: failure, chatbotId: turn.chatbot.id }, 'chat stream failed');

  let creditsUsed = 0;
  try {
    creditsUsed = await recordOutcome(deps.db, turn, outcome);
  } catch (error) {
    deps.log.error({ err: error }, 'saving the chat answer failed');
  }
  yield { type: 'usage', input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, credits: creditsUsed };
  if (outcome.finishReason === 'error') yield { type: 'error', code: 'upstream_failed', message: 'The model could not answer. Please try again.' };
  yield { type: 'end', finish_reason: outcome.finishReason };
}

async function* modelFrames(
  deps: ChatDeps,
  turn: ChatTurn,
  signal: AbortSignal,
): AsyncGenerator<ChatFrame, { outcome: StreamOutcome; failure: unknown }, undefined> {
  let text = '';
  let usage: { inputTokens?: number; outputTokens?: number } | undefined;
  let finishReason: StreamOutcome['finishReason'] = 'stop';
  let failure: unknown = null;
  let failed = false;
  const fail = (error: unknown) => {
    failed = true;
    failure = error;
  };
  try {
    const result = streamText({
      model: deps.llm.languageModel(turn.model.provider, turn.model.providerModelId),
      system: turn.system || undefined,
      messages: turn.messages,
      temperature: turn.chatbot.temperature,
      topP: turn.chatbot.topP,
      abortSignal: signal,
      maxRetries: 0,
      providerOptions: { demo: { language: turn.member.language } },
      // Failures arrive as `error` parts below; the default handler would only print them.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        text += part.text;
        yield { type: 'text', delta: part.text };
      } else if (part.type === 'reasoning-delta') {
        yield { type: 'thinking', delta: part.text };
      } else if (part.type === 'source' && part.sourceType === 'url') {
        yield { type: 'citation', citation: { kind: 'web', url: part.url, ...(part.title ? { title: part.title } : {}) } };
      } else if (part.type === 'finish') {
        usage = part.totalUsage;
        if (part.finishReason === 'length') finishReason = 'length';
      } else if (part.type === 'error') {
        fail(part.error);
      }
    }
  } catch (error) {
    if (!signal.aborted) fail(error);
  }
  if (signal.aborted) finishReason = 'aborted';
  else if (failed) finishReason = 'error';
  return {
    outcome: {
      text,
      inputTokens: usage?.inputTokens ?? turn.estimatedInputTokens,
      outputTokens: usage?.outputTokens ?? estimateTokens(text),
      finishReason,
    },
    failure,
  };
}

/**
 * Age after which an answer still marked as streaming is taken as abandoned by a process that died.
 * Far longer than any answer streams, because server processes sharing one PostgreSQL must not fail
 * each other's live answers.
 */
export const ABANDONED_ANSWER_MINUTES = 10;

/**
 * Marks answers whose server died mid-stream as failed, so that they show as interrupted instead of
 * an empty answer forever, and releases their credit reservations in full (nothing was saved or
 * metered for them); returns how many. Run at start-up. Compares with the database clock, which
 * also wrote `created_at`. Should a live answer ever outlast the limit, its own final save still
 * overwrites the mark and settles its reservation at the real cost.
 */
export async function failAbandonedAnswers(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const failed = await tx
      .update(sessionMessages)
      .set({ interrupted: 'failed', streaming: false })
      .where(and(eq(sessionMessages.streaming, true), lt(sessionMessages.createdAt, sql`now() - make_interval(mins => ${ABANDONED_ANSWER_MINUTES})`)))
      .returning({ id: sessionMessages.id });
    await releaseAbandonedReservations(tx, failed.map((row) => row.id));
    return failed.length;
  });
}

/** Puts the chatbot first in the member's recent ones and forgets those beyond RECENT_CHATBOTS_KEPT. */
async function rememberRecentChatbot(tx: Transaction, member: MemberRow, chatbotId: number, now: Date): Promise<void> {
  await tx
    .insert(recentChatbots)
    .values({ tenantId: member.tenantId, memberId: member.id, chatbotId, usedAt: now })
    .onConflictDoUpdate({ target: [recentChatbots.memberId, recentChatbots.chatbotId], set: { usedAt: now } });
  const kept = tx
    .select({ chatbotId: recentChatbots.chatbotId })
    .from(recentChatbots)
    .where(eq(recentChatbots.memberId, member.id))
    .orderBy(desc(recentChatbots.usedAt))
    .limit(RECENT_CHATBOTS_KEPT);
  await tx.delete(recentChatbots).where(and(eq(recentChatbots.memberId, member.id), notInArray(recentChatbots.chatbotId, kept)));
}

/**
 * Saves the answer, settles the reservation at the real cost and meters the usage, all in one
 * statement; returns the credits charged.
 */
async function recordOutcome(db: Database, turn: ChatTurn, outcome: StreamOutcome): Promise<number> {
  const { tenant, member, model, session, chatbot } = turn;
  const cost = isFreeModel(model, tenant) ? 0 : messageCost(model, outcome);
  const interrupted = outcome.finishReason === 'aborted' ? 'stopped' : outcome.finishReason === 'error' ? 'failed' : null;
  const tokens = outcome.inputTokens + outcome.outputTokens;
  const now = new Date();
  const period = now.toISOString().slice(0, 7);
  // One statement, so it is atomic without a transaction and holds the locks on rows other sends
  // update too (balances, the chatbot's counters) only while it runs.
  const cte = (name: string, statement: { getSQL(): SQL }) => sql`${sql.identifier(name)} as (${statement.getSQL()}),`;
  const statements = [
    cte(
      'answer',
      db
        .update(sessionMessages)
        .set({ text: outcome.text, interrupted, inputTokens: outcome.inputTokens, outputTokens: outcome.outputTokens, streaming: false })
        .where(eq(sessionMessages.id, turn.meta.chatbot_message_id)),
    ),
    cte(
      'usage',
      db.insert(usageRecords).values({
        tenantId: tenant.id,
        memberId: member.id,
        memberGroupId: turn.memberGroupId,
        chatbotId: chatbot.id,
        sessionId: session.id,
        messageId: turn.meta.chatbot_message_id,
        llmModelId: model.id,
        modelName: model.name,
        inputTokens: outcome.inputTokens,
        outputTokens: outcome.outputTokens,
        credits: cost,
      }),
    ),
    cte('session', db.update(sessions).set({ lastChatAt: now }).where(eq(sessions.id, session.id))),
  ];
  if (!turn.isTest) {
    statements.push(
      cte(
        'counters',
        db
          .update(chatbots)
          .set({
            messageCount: sql`${chatbots.messageCount} + 1`,
            tokenCount: sql`${chatbots.tokenCount} + ${tokens}`,
            monthTokenCount: sql`case when ${chatbots.monthTokenPeriod} = ${period} then ${chatbots.monthTokenCount} + ${tokens} else ${tokens} end`,
            monthTokenPeriod: period,
            lastChatAt: now,
          })
          .where(eq(chatbots.id, chatbot.id)),
      ),
    );
  }
  const also = sql.join(statements, sql` `);
  if (turn.reservation) await settleCredits(db, member, turn.reservation.id, turn.reservation.amount, cost, also);
  else await db.execute(sql`with ${also} saved as (select 1) select 1 from saved`);
  if (!turn.isTest && !chatbot.isDefault) await db.transaction((tx) => rememberRecentChatbot(tx, member, chatbot.id, now));
  return cost;
}

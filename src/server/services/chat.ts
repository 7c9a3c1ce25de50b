import { type LanguageModelCallOptions, type ModelMessage, streamText } from 'ai';
import { clock, periodOf } from '../clock';
import { type SQL, and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ChatFrame, ChatMeta, Citation, chatBodySchema } from '../../shared/api/chat';
import type { Database } from '../db/client';
import { chatbots, files, sessionMessages, sessions, usageRecords } from '../db/schema';
import { AppError, notFound } from '../errors';
import type { LlmRegistry } from '../llm/registry';
import { estimateTokens } from '../../shared/domain/tokens';
import type { ChatbotRow, LlmModelRow, MemberRow, SessionRow, TenantRow } from '../db/rows';
import { rememberRecentChatbot } from './recentChatbots';
import { type Billing, assertCreditLeft, isFreeModel, toCreditCheck, messageCost, refuseReservation, releaseAbandonedReservations, settleCredits } from './credits';
import { isCreditsDepleted } from '../../shared/domain/credits';
import { type FileContext, withoutFiles } from './fileContext';
import { findSendTarget } from './sendContext';
import { findOwnSession, newHashId } from './sessions';
import { findTestTarget } from './studio';
import { saveTurnStart } from './turnStart';
import type { InputGuard } from './inputGuard';
import type { PiiKind } from '../../shared/domain/pii';
import { NO_SOURCES, type Sources, type SourcesService, webSearchCredits } from './sources';
import { type ImageDeps, type ImageOutcome, IMAGE_FAILED_FRAME, imageFrames } from './images';
import { type SendModes, sendModes, thinkingOptions } from './modes';
import { findTaskMode } from './taskModes';

type ChatBody = z.output<typeof chatBodySchema>;

/** The logger calls the service makes; a Fastify request logger fits. */
export interface ChatLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ChatDeps {
  db: Database;
  llm: LlmRegistry;
  images: ImageDeps;
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
  /** As stored and sent to the model: personal data the tenant masks is masked. */
  text: string;
  maskedPii: PiiKind[];
  fileIds: number[];
  sessionTitle: string | null;
  /** Chatbot instructions, plus the chosen task mode's, plus the sources' passages and web results. */
  system: string;
  /** Document passages and web results given to the model, cited by the answer. */
  sources: Sources;
  messages: ModelMessage[];
  estimatedInputTokens: number;
  /**
   * The longest answer the call asks for, in tokens: the model's maximum, an API call's own limit,
   * and what the context leaves after the input; lowered when the credits left cannot pay for it.
   */
  outputLimit: number;
  /** Credits to reserve before streaming, for an answer of `outputLimit` tokens; 0 for a free model. */
  reserved: number;
  isTest: boolean;
  /** Flags of the session this send creates (a visitor's public chat: public and held for them; an API call's). */
  newSession?: Partial<Pick<SessionRow, 'isPublic' | 'isVisitor' | 'isApi'>>;
  /** The API key of an OpenAI-compatible call: its usage rows name it, and it is no recent chatbot. */
  apiKeyId?: number;
  /** Who pays: the sender, unless a visitor's send is billed to the chatbot's creator. */
  billing?: Billing;
  /** Thinking, image and task mode of the send. */
  modes: SendModes;
  /** An API call's own sampling, over the chatbot's (its output limit is in `outputLimit`). */
  sampling?: Omit<Sampling, 'maxOutputTokens'>;
}

/** An opened turn: session, member message and answer placeholder saved, credits reserved. */
export interface ChatTurn extends CheckedSend {
  session: SessionRow;
  memberGroupId: number | null;
  meta: ChatMeta;
  reservation: { id: number; amount: number } | null;
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

/** What checking a send needs: the database, the tenant's input guard, and the sources (retrieval, web search) when configured. */
export interface SendDeps {
  db: Database;
  guard: InputGuard;
  sources?: SourcesService;
  /** Turns attached files into the member's message for the model; without it files are not read. */
  files?: FileContext;
}

/**
 * Sampling an API call chooses for itself, in streamText's terms; what it leaves out is the
 * chatbot's (temperature, top p) or the model's default.
 */
export type Sampling = Pick<LanguageModelCallOptions, 'temperature' | 'topP' | 'maxOutputTokens' | 'stopSequences' | 'presencePenalty' | 'frequencyPenalty' | 'seed'>;

/** How a send differs when it is not a member's own (a visitor's chat with a public chatbot). */
export interface SendOptions {
  /** Finds the session sent to; by default one of the member's own. */
  findSession?: (db: Database, member: MemberRow, hash: string) => Promise<SessionRow>;
  billing?: Billing;
  /** An API call brings its own conversation (already checked by the input guard) instead of a session's. */
  history?: ModelMessage[];
  /** An API call's own system messages, after the chatbot's instructions. */
  instructions?: string;
  /** An API call's own sampling parameters. */
  sampling?: Sampling;
}

/**
 * Checks a send against the rules known before streaming (spec §8 chat errors: 422 empty or
 * restricted term, 428 personal data the tenant blocks (what it masks comes back masked), 404
 * unknown chatbot, file, task mode or session, 403 model not allowed, 413 over
 * the context limit, 402 for a paid model that costs nothing when credits are depleted). Reads only.
 */
export async function checkSend(
  deps: SendDeps,
  tenant: TenantRow,
  member: MemberRow,
  chatbotId: number,
  body: ChatBody,
  { findSession = findOwnSession, billing, history: givenHistory, instructions = '', sampling }: SendOptions = {},
): Promise<CheckedSend> {
  const { db, guard, sources: sourcesService, files: fileContext = withoutFiles } = deps;
  const typed = body.text.trim();
  if (!typed && body.file_ids.length === 0) throw new AppError(422, 'message_empty', 'A message needs text or an image.');

  // A Studio test chat: its author (or an admin) tests the chatbot in any state, paid like any other send.
  const { chatbot, model, mayUseModel } = body.is_test ? await findTestTarget(db, member, chatbotId) : await findSendTarget(db, member, chatbotId);

  const fileIds = [...new Set(body.file_ids)];
  if (fileIds.length > 0) {
    const owned = await db
      .select({ id: files.id, type: files.mimeType })
      .from(files)
      .where(and(eq(files.tenantId, tenant.id), eq(files.memberId, member.id), inArray(files.id, fileIds)));
    if (owned.length !== fileIds.length) throw notFound('An attached file does not exist.');
    if (!typed && !owned.some((file) => file.type.startsWith('image/'))) throw new AppError(422, 'message_empty', 'A message needs text or an image.');
  }

  // 422 restricted term, 428 blocked personal data; masked personal data from here on.
  const { text, maskedPii } = await guard.check(tenant.id, typed);

  if (!mayUseModel) {
    throw new AppError(403, 'model_not_allowed', 'Your member group may not use this model.');
  }

  const taskMode = body.task_mode_id ? await findTaskMode(db, tenant.id, body.task_mode_id) : undefined;

  const existing = body.session_hash_id ? await findSession(db, member, body.session_hash_id) : null;
  // Test chats and real ones never share a session.
  if (existing && (existing.chatbotId !== chatbot.id || existing.isTest !== body.is_test)) throw notFound('The session does not exist.');

  // The attached files' text and images go with the member's message (services/fileContext).
  const input = await fileContext(db, tenant.id, fileIds, text, model.contextLimit);
  const sources = sourcesService
    ? await sourcesService.gather({ tenantId: tenant.id, chatbotId: chatbot.id, existing, fileIds, wholeFileIds: input.wholeFileIds, text, webSearch: body.web_search ?? false })
    : NO_SOURCES;
  const system = [chatbot.systemInstructions, instructions, taskMode?.instructions ?? '', sources.context].filter((part) => part.trim() !== '').join('\n\n');

  const history = existing ? await historyMessages(db, existing.id) : (givenHistory ?? []);
  const messages: ModelMessage[] = [...history, input.message];
  const estimatedInputTokens = estimateTokens(system) + history.reduce((sum, m) => sum + estimateTokens(messageText(m)), 0) + input.tokens;
  if (estimatedInputTokens > model.contextLimit) {
    throw new AppError(413, 'input_too_long', 'The input exceeds the model’s limit. Please split your question.', {
      estimated_tokens: estimatedInputTokens,
      context_limit: model.contextLimit,
    });
  }

  // Every call names its output limit, and the reservation pays for an answer that long (DESIGN §7).
  const { maxOutputTokens: requestedOutput, ...callSampling } = sampling ?? {};
  const outputLimit = Math.max(1, Math.min(model.maxOutputTokens, requestedOutput ?? Infinity, model.contextLimit - estimatedInputTokens));
  const free = isFreeModel(model, tenant);
  const reserved = free ? 0 : messageCost(model, { inputTokens: estimatedInputTokens, outputTokens: outputLimit }) + webSearchCredits(model, sources);
  // A paid model that costs nothing still needs credits left; anything to reserve is checked with its reservation (openTurn).
  if (!free && reserved === 0) await assertCreditLeft(db, member, billing);

  return {
    tenant,
    member,
    chatbot,
    model,
    existing,
    text,
    maskedPii,
    fileIds,
    sessionTitle: body.session_title?.trim() ? await guard.maskAll(tenant.id, body.session_title.trim()) : null,
    system,
    sources,
    messages,
    estimatedInputTokens,
    outputLimit,
    reserved,
    isTest: body.is_test,
    billing,
    modes: sendModes(body, model, taskMode),
    ...(sampling ? { sampling: callSampling } : {}),
  };
}

/**
 * Opens the turn of a checked send: one statement creates the session on the first message, saves
 * the member's message and a placeholder for the answer, and reserves the estimated cost
 * (services/turnStart); a 402 when the credits were depleted takes the send back out. A member who
 * cannot pay for the whole answer gets what the credits left pay for: the output limit shrinks to
 * it, and the answer ends with finish reason `length` (the credit notice follows from the figures).
 */
export async function openTurn(db: Database, send: CheckedSend): Promise<ChatTurn> {
  const { tenant, member, chatbot, model, existing, text, fileIds } = send;
  const saved = await saveTurnStart(
    db,
    existing ?? {
      tenantId: tenant.id,
      hashId: newHashId(),
      chatbotId: chatbot.id,
      memberId: member.id,
      title: send.sessionTitle,
      lastChatAt: new Date(),
      hasFiles: fileIds.length > 0,
      isTest: send.isTest,
      ...send.newSession,
    },
    { tenantId: tenant.id, text, modelId: model.id, fileIds },
    send.reserved > 0 ? { member, amount: send.reserved } : undefined,
  );
  const { session } = saved;
  let { outputLimit } = send;
  if (saved.reservation) {
    const { held, before } = saved.reservation;
    try {
      outputLimit = affordableOutput(send, held.amount);
      if (isCreditsDepleted(toCreditCheck(before)) || outputLimit < 1) await refuseReservation(db, member, held, before, send.billing);
    } catch (error) {
      await db.transaction(async (tx) => {
        await tx.delete(sessionMessages).where(inArray(sessionMessages.id, [saved.memberMessageId, saved.answerId]));
        if (!existing) await tx.delete(sessions).where(eq(sessions.id, session.id));
      });
      throw error;
    }
  }
  // The first files of an existing session: later sends there look for them (retrieval).
  if (existing && fileIds.length > 0 && !existing.hasFiles) await db.update(sessions).set({ hasFiles: true }).where(eq(sessions.id, existing.id));
  const reservation: ChatTurn['reservation'] = saved.reservation?.held ?? null;
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
      ...(send.maskedPii.length > 0 ? { masked_pii: send.maskedPii } : {}),
    },
    outputLimit,
    reservation,
  };
}

/** Ledger amounts are stored to six decimals, so a reservation may round below what was asked. */
const LEDGER_PRECISION = 1e-6;

/**
 * The output tokens `held` credits pay for: the send's whole output limit when it got what it asked,
 * else what is left after the input and web search (an image is all or nothing: 0).
 */
export function affordableOutput(send: Pick<CheckedSend, 'reserved' | 'outputLimit' | 'model' | 'estimatedInputTokens' | 'sources' | 'modes'>, held: number): number {
  if (held >= send.reserved - LEDGER_PRECISION) return send.outputLimit;
  if (send.modes.image) return 0;
  const { model } = send;
  const forOutput = held - messageCost(model, { inputTokens: send.estimatedInputTokens, outputTokens: 0 }) - webSearchCredits(model, send.sources);
  return Math.min(send.outputLimit, Math.floor((forOutput * 10_000) / model.outputCostPer10k));
}

export interface StreamOutcome {
  text: string;
  /** Every citation streamed: the sources given to the model, then those it named itself (URL source parts). */
  citations: Citation[];
  inputTokens: number;
  outputTokens: number;
  finishReason: 'stop' | 'length' | 'aborted' | 'error';
  /** What the model reasoned (thinking) and for how long. */
  reasoning?: { text: string; ms: number };
  /** Image mode: metered by image instead of by token. */
  image?: ImageOutcome;
}

/**
 * The answer of an opened turn as frames: the model's deltas as they arrive, then `usage`, an
 * `error` when the model failed, and `end`. Aborting `signal` (the client went away: stop, a new
 * send) aborts the upstream call; whatever was streamed is saved either way, with `interrupted`
 * telling why. The consumer must read to the end even after the client is gone, since the last
 * step saves the answer.
 */
export async function* streamAnswer(deps: ChatDeps, turn: ChatTurn, signal: AbortSignal): AsyncGenerator<ChatFrame, void, undefined> {
  const { outcome, failure } = yield* (turn.modes.image ? imageFrames(deps, turn, signal) : modelFrames(deps, turn, signal));
  if (failure) deps.log.warn({ err: failure, chatbotId: turn.chatbot.id }, 'chat stream failed');

  let creditsUsed = 0;
  try {
    creditsUsed = await recordOutcome(deps.db, turn, outcome);
  } catch (error) {
    deps.log.error({ err: error }, 'saving the chat answer failed');
  }
  yield { type: 'usage', input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, credits: creditsUsed };
  if (outcome.finishReason === 'error') {
    yield turn.modes.image ? IMAGE_FAILED_FRAME : { type: 'error', code: 'upstream_failed', message: 'The model could not answer. Please try again.' };
  }
  yield { type: 'end', finish_reason: outcome.finishReason };
}

async function* modelFrames(
  deps: ChatDeps,
  turn: ChatTurn,
  signal: AbortSignal,
): AsyncGenerator<ChatFrame, { outcome: StreamOutcome; failure: unknown }, undefined> {
  let text = '';
  const citations = [...turn.sources.citations];
  let reasoning = '';
  // From the first reasoning delta to the first answer delta: the "thought for N s" of the answer.
  let reasoningStartedAt: number | null = null;
  let reasoningMs = 0;
  let usage: { inputTokens?: number; outputTokens?: number } | undefined;
  let finishReason: StreamOutcome['finishReason'] = 'stop';
  let failure: unknown = null;
  let failed = false;
  const fail = (error: unknown) => {
    failed = true;
    failure = error;
  };
  for (const citation of turn.sources.citations) yield { type: 'citation', citation };
  const { temperature = turn.chatbot.temperature, topP = turn.chatbot.topP, ...sampling } = turn.sampling ?? {};
  try {
    const result = streamText({
      model: deps.llm.languageModel(turn.model.provider, turn.model.providerModelId),
      system: turn.system || undefined,
      messages: turn.messages,
      temperature,
      topP,
      ...sampling,
      maxOutputTokens: turn.outputLimit,
      abortSignal: signal,
      maxRetries: 0,
      ...thinkingOptions(turn.modes),
      providerOptions: { demo: { language: turn.member.language, ...(turn.modes.taskModeName ? { taskMode: turn.modes.taskModeName } : {}) } },
      // Failures arrive as `error` parts below; the default handler would only print them.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (reasoningStartedAt !== null && text === '') reasoningMs = performance.now() - reasoningStartedAt;
        text += part.text;
        yield { type: 'text', delta: part.text };
      } else if (part.type === 'reasoning-delta') {
        reasoningStartedAt ??= performance.now();
        reasoning += part.text;
        yield { type: 'thinking', delta: part.text };
      } else if (part.type === 'source' && part.sourceType === 'url') {
        const citation: Citation = { kind: 'web', url: part.url, ...(part.title ? { title: part.title } : {}) };
        citations.push(citation);
        yield { type: 'citation', citation };
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
  // Reasoning that never reached an answer (stopped, failed) lasted until now.
  if (reasoningStartedAt !== null && text === '') reasoningMs = performance.now() - reasoningStartedAt;
  return {
    outcome: {
      text,
      citations,
      ...(reasoning ? { reasoning: { text: reasoning, ms: Math.round(reasoningMs) } } : {}),
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

/**
 * Saves the answer, settles the reservation at the real cost and meters the usage, all in one
 * statement; returns the credits charged.
 */
async function recordOutcome(db: Database, turn: ChatTurn, outcome: StreamOutcome): Promise<number> {
  const { tenant, member, model, session, chatbot } = turn;
  const free = isFreeModel(model, tenant);
  // An image answer costs its price per image, a text answer its tokens; web search is metered as a row of its own.
  const webCost = free ? 0 : webSearchCredits(model, turn.sources);
  const fullTokenCost = outcome.image ? outcome.image.credits : free ? 0 : messageCost(model, outcome);
  // Never more than the reservation (DESIGN §7), even when the model counted more input than estimated.
  const cost = turn.reservation ? Math.min(fullTokenCost + webCost, turn.reservation.amount) : fullTokenCost + webCost;
  const tokenCost = cost - webCost;
  const interrupted = outcome.finishReason === 'aborted' ? 'stopped' : outcome.finishReason === 'error' ? 'failed' : null;
  const tokens = outcome.inputTokens + outcome.outputTokens;
  // The credit clock: the usage row and the ledger's settlement count in the same month.
  const now = clock.now();
  const period = periodOf(now);
  const usageRow = {
    createdAt: now,
    tenantId: tenant.id,
    memberId: member.id,
    memberGroupId: turn.memberGroupId,
    chatbotId: chatbot.id,
    sessionId: session.id,
    messageId: turn.meta.chatbot_message_id,
    llmModelId: model.id,
    modelName: model.name,
    isTest: turn.isTest,
    apiKeyId: turn.apiKeyId ?? null,
  };
  // One statement, so it is atomic without a transaction and holds the locks on rows other sends
  // update too (balances, the chatbot's counters) only while it runs.
  const cte = (name: string, statement: { getSQL(): SQL }) => sql`${sql.identifier(name)} as (${statement.getSQL()}),`;
  const statements = [
    cte(
      'answer',
      db
        .update(sessionMessages)
        .set({
          text: outcome.text,
          interrupted,
          inputTokens: outcome.inputTokens,
          outputTokens: outcome.outputTokens,
          citations: outcome.citations,
          reasoning: outcome.reasoning?.text ?? null,
          reasoningMs: outcome.reasoning?.ms ?? null,
          streaming: false,
        })
        .where(eq(sessionMessages.id, turn.meta.chatbot_message_id)),
    ),
    cte(
      'usage',
      db.insert(usageRecords).values([
        {
          ...usageRow,
          inputTokens: outcome.inputTokens,
          outputTokens: outcome.outputTokens,
          credits: tokenCost,
          // An image is metered under the image model's name, by count.
          ...(outcome.image ? { llmModelId: null, modelName: outcome.image.model, imageCount: outcome.image.count } : {}),
        },
        ...(turn.sources.webSearchTokens === null ? [] : [{ ...usageRow, inputTokens: 0, outputTokens: 0, webSearchCount: 1, credits: webCost }]),
      ]),
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
  if (!turn.isTest && !chatbot.isDefault && !session.isVisitor && !session.isApi) await db.transaction((tx) => rememberRecentChatbot(tx, member, chatbot.id, now));
  return cost;
}

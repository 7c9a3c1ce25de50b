import { type ModelMessage, stepCountIs, streamText } from 'ai';
import { clock, periodOf } from '../../clock';
import { type SQL, and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  ANSWER_NOT_SAVED_FRAME,
  type ChatFrame,
  type Citation,
  SERVER_SHUTTING_DOWN_FRAME,
  type ToolCall,
  type chatBodySchema,
} from '../../../shared/api/chat';
import type { Database } from '../../db/client';
import { isConnectionLost, isUniqueViolation } from '../../db/databaseErrors';
import { chatbots, creditLedger, files, llmModels, members, sessionMessageFiles, sessionMessages, sessions, usageRecords } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { estimateTokens } from '../../../shared/domain/tokens';
import type { LlmModelRow, MemberRow, SessionRow, TenantRow } from '../../db/rows';
import { rememberRecentChatbot } from '../chatbots/recent';
import {
  type Billing,
  type Reservation,
  assertCreditLeft,
  isFreeModel,
  messageCost,
  refuseReservation,
  releaseOrphanedReservations,
  settleCredits,
  toCreditCheck,
} from '../credits/service';
import { isCreditsDepleted } from '../../../shared/domain/credits';
import { type AnswerContent, type AnswerLease, type LiveAnswer, cutOffOf, storableText } from './liveAnswers';
import { withoutFiles } from './fileContext';
import { findOwnSession, newHashId } from '../sessions/service';
import { branchTexts, findQuestion } from '../sessions/branches';
import { findTestTarget } from '../studio/service';
import { saveTurnStart } from './turnStart';
import { NO_SOURCES, webSearchCredits } from './sources';
import { IMAGE_FAILED_FRAME, imageFrames } from './images';
import type { ChatDeps, ChatTurn, CheckedSend, Sampling, StreamOutcome } from './turn';
import { sendModes, thinkingOptions } from './modes';
import { findTaskMode } from '../taskModes/service';
import { auditToolCall, callArguments, nextStepOutput, offeredTools, preview, reservationSpent, toolDefinitionTokens, toolRunner } from './tools';
import type { AppDeps } from '../../deps';

type ChatBody = z.output<typeof chatBodySchema>;

/** The model's view of a branch: what was said, without empty messages (an answer stopped before its first word). */
function modelHistory(branch: { speaker: 'member' | 'chatbot'; text: string }[]): ModelMessage[] {
  return branch
    .filter((row) => row.text.trim() !== '')
    .map((row) => (row.speaker === 'member' ? { role: 'user', content: row.text } : { role: 'assistant', content: row.text }));
}

/** The session's stored files on a member message (a regeneration sends them again). */
async function messageFileIds(db: Database, messageId: number): Promise<number[]> {
  const rows = await db.select({ id: sessionMessageFiles.fileId }).from(sessionMessageFiles).where(eq(sessionMessageFiles.messageId, messageId));
  return rows.map((row) => row.id);
}

const messageText = (message: ModelMessage) => (typeof message.content === 'string' ? message.content : '');

/** What checking a send needs: the database, the tenant's input guard, and the sources (retrieval, web search) when configured. */
/** Without `fileContext` attached files are not read; without `sources` nothing is searched. */
export type SendDeps = Pick<AppDeps, 'db' | 'guard' | 'sendTargets'> & Partial<Pick<AppDeps, 'sources' | 'fileContext'>>;

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
  /** False: the chatbot's tools are not offered (a signed-out visitor's send runs as the chatbot's creator). */
  tools?: boolean;
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
  { findSession = findOwnSession, billing, history: givenHistory, instructions = '', sampling, tools: withTools = true }: SendOptions = {},
): Promise<CheckedSend> {
  const { db, guard, sendTargets, sources: sourcesService, fileContext = withoutFiles } = deps;
  const existing = body.session_hash_id ? await findSession(db, member, body.session_hash_id) : null;
  // A regeneration asks the stored question again; an edit replaces one (the body's schema wants a session for both).
  const replacedId = body.regenerate_message_id ?? body.edit_message_id;
  const replaced = existing && replacedId !== undefined ? await findQuestion(db, existing, replacedId) : null;
  const regenerated = body.regenerate_message_id !== undefined ? replaced : null;
  const typed = regenerated ? regenerated.text.trim() : body.text.trim();
  const askedFileIds = regenerated ? await messageFileIds(db, regenerated.id) : body.file_ids;
  if (!typed && askedFileIds.length === 0) throw new AppError(422, 'message_empty', 'A message needs text or an image.');

  // A Studio test chat: its author (or an admin) tests the chatbot in any state, paid like any other send.
  const { chatbot, model, mayUseModel, mayHaveTools } = body.is_test ? await findTestTarget(db, member, chatbotId) : await sendTargets.find(member, chatbotId);

  const fileIds = [...new Set(askedFileIds)];
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

  const taskMode = body.task_mode_id ? await findTaskMode(db, tenant.id, body.task_mode_id, member.language) : undefined;

  // Test chats and real ones never share a session.
  if (existing && (existing.chatbotId !== chatbot.id || existing.isTest !== body.is_test)) throw notFound('The session does not exist.');

  // The attached files' text and images go with the member's message (domains/chat/fileContext).
  const input = await fileContext(tenant.id, fileIds, text, model.contextLimit);
  const sources = sourcesService
    ? await sourcesService.gather({
        tenantId: tenant.id,
        chatbotId: chatbot.id,
        existing,
        fileIds,
        wholeFileIds: input.wholeFileIds,
        text,
        webSearch: body.web_search ?? false,
      })
    : NO_SOURCES;
  const system = [chatbot.systemInstructions, instructions, taskMode?.instructions ?? '', sources.context].filter((part) => part.trim() !== '').join('\n\n');

  // The branch the turn continues: the active one, or the one the replaced message started from.
  const branch = existing ? await branchTexts(db, existing, replaced ? { from: replaced.parentId } : { active: true }) : [];
  const history = existing ? modelHistory(branch) : (givenHistory ?? []);
  const messages: ModelMessage[] = [...history, input.message];
  const modes = sendModes(body, model, taskMode);
  const tools = withTools && mayHaveTools && !modes.image ? await offeredTools(db, member, chatbot.id) : [];
  const estimatedInputTokens =
    estimateTokens(system) + history.reduce((sum, m) => sum + estimateTokens(messageText(m)), 0) + input.tokens + toolDefinitionTokens(tools);
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
    place: regenerated
      ? { parentId: regenerated.parentId, questionId: regenerated.id }
      : { parentId: replaced ? replaced.parentId : (branch.at(-1)?.id ?? null), questionId: null },
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
    modes,
    tools,
    ...(sampling ? { sampling: callSampling } : {}),
  };
}

/**
 * Opens the turn of a checked send: one statement creates the session on the first message, saves
 * the member's message and a placeholder for the answer owned by `lease` (the process that will
 * stream it), and reserves the estimated cost (domains/chat/turnStart); a 402 when the credits were
 * depleted takes the send back out. A member who cannot pay for the whole answer gets what the
 * credits left pay for: the output limit shrinks to it, and the answer ends with finish reason
 * `length` (the credit notice follows from the figures).
 */
export async function openTurn(db: Database, send: CheckedSend, lease: AnswerLease): Promise<ChatTurn> {
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
    // An image answer's price is its image, not tokens: a cut-off one is charged by whether its image was stored.
    {
      tenantId: tenant.id,
      text,
      modelId: model.id,
      fileIds,
      estimatedInputTokens: send.modes.image ? 0 : send.estimatedInputTokens,
      place: send.place,
    },
    lease,
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
        // A regeneration's question was there before it.
        const added = send.place.questionId === null ? [saved.memberMessageId, saved.answerId] : [saved.answerId];
        await tx.delete(sessionMessages).where(inArray(sessionMessages.id, added));
        if (!existing) await tx.delete(sessions).where(eq(sessions.id, session.id));
        else await tx.update(sessions).set({ activeLeafId: existing.activeLeafId }).where(eq(sessions.id, existing.id));
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
export function affordableOutput(
  send: Pick<CheckedSend, 'reserved' | 'outputLimit' | 'model' | 'estimatedInputTokens' | 'sources' | 'modes'>,
  held: number,
): number {
  if (held >= send.reserved - LEDGER_PRECISION) return send.outputLimit;
  if (send.modes.image) return 0;
  const { model } = send;
  const forOutput = held - messageCost(model, { inputTokens: send.estimatedInputTokens, outputTokens: 0 }) - webSearchCredits(model, send.sources);
  return Math.min(send.outputLimit, Math.floor((forOutput * 10_000) / model.outputCostPer10k));
}

/** Why a saved answer ended early (null: it completed). */
type Interrupted = (typeof sessionMessages.$inferSelect)['interrupted'];

/**
 * The answer of an opened turn as frames: the model's deltas as they arrive, then, once the answer
 * is saved, `usage`, an `error` when it ended badly (the model failed, the server is shutting
 * down) and `end`. An answer that could not be saved ends with the `answer_not_saved` error and
 * neither `usage` nor `end`: nothing is reported as saved that was not (DESIGN §6); its lease
 * then runs out and a sweep saves it as interrupted. Aborting `signal` (the client went away:
 * stop, a new send) aborts the upstream call, and so does the process cutting the answer off
 * (shutdown deadline, lease lost); whatever was streamed is saved either way, with `interrupted`
 * telling why. The consumer must read to the end even after the client is gone, since the last
 * step saves the answer.
 */
export async function* streamAnswer(deps: ChatDeps, turn: ChatTurn, signal: AbortSignal): AsyncGenerator<ChatFrame, void, undefined> {
  const live = deps.answers.track(turn.meta.chatbot_message_id);
  const stream = AbortSignal.any([signal, live.signal]);
  let released = false;
  try {
    const { outcome, failure } = yield* turn.modes.image ? imageFrames(deps, turn, stream) : modelFrames(deps, turn, stream, live);
    if (failure) deps.log.warn({ err: failure, chatbotId: turn.chatbot.id }, 'chat stream failed');
    const cutOff = cutOffOf(stream);
    if (cutOff === 'lost') {
      // A sweep saved it as interrupted already: this process could not renew its lease in time.
      deps.log.error({ answerId: turn.meta.chatbot_message_id }, 'chat answer taken over by a sweep before it was saved');
      released = true;
      live.done();
      yield ANSWER_NOT_SAVED_FRAME;
      return;
    }
    live.finishing();
    const interrupted: Interrupted =
      cutOff === 'shutdown' ? 'interrupted' : outcome.finishReason === 'aborted' ? 'stopped' : outcome.finishReason === 'error' ? 'failed' : null;
    const creditsUsed = await saveAnswer(deps, turn, outcome, interrupted);
    released = true;
    if (creditsUsed === null) {
      live.handOver(contentOf(outcome));
      yield ANSWER_NOT_SAVED_FRAME;
      return;
    }
    live.done();
    yield { type: 'usage', input_tokens: outcome.inputTokens, output_tokens: outcome.outputTokens, credits: creditsUsed };
    if (cutOff === 'shutdown') yield SERVER_SHUTTING_DOWN_FRAME;
    else if (outcome.finishReason === 'error') {
      yield turn.modes.image ? IMAGE_FAILED_FRAME : { type: 'error', code: 'upstream_failed', message: 'The model could not answer. Please try again.' };
    }
    yield { type: 'end', finish_reason: cutOff === 'shutdown' ? 'error' : outcome.finishReason };
  } finally {
    // A consumer that stopped reading early leaves the answer to the sweep rather than to nobody.
    if (!released) live.handOver(live.content);
  }
}

const contentOf = (outcome: StreamOutcome): AnswerContent => ({
  text: outcome.text,
  reasoning: outcome.reasoning?.text ?? '',
  citations: outcome.citations,
  toolCalls: outcome.toolCalls,
});

/**
 * The model's answer as frames. With tools, the AI SDK's loop: each step may call tools, whose
 * results go to the next step, up to the chatbot's step limit (the last step may only answer in
 * words) and as far as the reservation pays (domains/chat/tools nextStepOutput). A call is framed
 * when the model makes it (`running`) and again when it ends, and recorded in the audit log.
 */
async function* modelFrames(
  deps: ChatDeps,
  turn: ChatTurn,
  signal: AbortSignal,
  live: LiveAnswer,
): AsyncGenerator<ChatFrame, { outcome: StreamOutcome; failure: unknown }, undefined> {
  let text = '';
  const citations = [...turn.sources.citations];
  const toolCalls: ToolCall[] = [];
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
  // A step's words after an earlier step's start a paragraph of their own.
  let stepHasText = false;
  live.update({ citations });
  for (const citation of turn.sources.citations) yield { type: 'citation', citation };
  const { temperature = turn.chatbot.temperature, topP = turn.chatbot.topP, ...sampling } = turn.sampling ?? {};
  const runner = turn.tools.length > 0 ? toolRunner(deps, turn, signal) : null;
  const stepLimit = turn.chatbot.toolStepLimit;
  const endCall = async (call: ToolCall, ended: Pick<ToolCall, 'status' | 'result' | 'duration_ms'>): Promise<ChatFrame> => {
    Object.assign(call, ended);
    live.update({ toolCalls });
    await auditToolCall(deps, turn, call);
    return { type: 'tool', call: { ...call } };
  };
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
      ...(runner
        ? {
            tools: runner.tools,
            stopWhen: [stepCountIs(stepLimit), ({ steps }) => reservationSpent(turn, steps)],
            // Every step's output is what the reservation still pays for; the last one answers in words.
            prepareStep: ({ stepNumber, steps }) => ({
              maxOutputTokens: stepNumber === 0 ? turn.outputLimit : nextStepOutput(turn, steps),
              ...(stepNumber === stepLimit - 1 ? { toolChoice: 'none' as const } : {}),
            }),
          }
        : {}),
      // Failures arrive as `error` parts below; the default handler would only print them.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (reasoningStartedAt !== null && text === '') reasoningMs = performance.now() - reasoningStartedAt;
        const delta = !stepHasText && text !== '' && part.text !== '' ? `\n\n${part.text}` : part.text;
        stepHasText ||= part.text !== '';
        text += delta;
        live.update({ text });
        yield { type: 'text', delta };
      } else if (part.type === 'reasoning-delta') {
        reasoningStartedAt ??= performance.now();
        reasoning += part.text;
        live.update({ reasoning });
        yield { type: 'thinking', delta: part.text };
      } else if (part.type === 'source' && part.sourceType === 'url') {
        const citation: Citation = { kind: 'web', url: part.url, ...(part.title ? { title: part.title } : {}) };
        citations.push(citation);
        live.update({ citations });
        yield { type: 'citation', citation };
      } else if (part.type === 'start-step') {
        stepHasText = false;
      } else if (part.type === 'tool-call') {
        const tool = turn.tools.find((offered) => offered.modelName === part.toolName);
        const call: ToolCall = {
          id: part.toolCallId,
          tool_id: tool?.id ?? null,
          name: tool?.name ?? part.toolName,
          server_name: tool?.server.name ?? '',
          arguments: callArguments(part.input),
          status: 'running',
          result: '',
          duration_ms: null,
          text_offset: text.length,
        };
        toolCalls.push(call);
        live.update({ toolCalls });
        yield { type: 'tool', call: { ...call } };
      } else if (part.type === 'tool-result' || part.type === 'tool-error') {
        const call = toolCalls.find((made) => made.id === part.toolCallId);
        const ended = runner?.ended.get(part.toolCallId);
        if (!call || call.status !== 'running') continue;
        if (ended) yield await endCall(call, { status: ended.status, result: ended.result, duration_ms: ended.durationMs });
        // Never run: a tool the chatbot does not have (refused), or arguments its schema refuses.
        else if (call.tool_id === null) yield await endCall(call, { status: 'refused', result: `The tool ${call.name} is not available.`, duration_ms: null });
        else
          yield await endCall(call, { status: 'error', result: preview(String(part.type === 'tool-error' ? errorText(part.error) : '')), duration_ms: null });
      } else if (part.type === 'finish') {
        usage = part.totalUsage;
        if (part.finishReason === 'length') finishReason = 'length';
        // Ended on tool results with no step left to read them (the step limit, or the reservation).
        if (part.finishReason === 'tool-calls') finishReason = 'length';
      } else if (part.type === 'error') {
        fail(part.error);
      }
    }
  } catch (error) {
    if (!signal.aborted) fail(error);
  } finally {
    await runner?.close();
  }
  // Calls cut off by a stop (or a failed stream) end as stopped.
  for (const call of toolCalls.filter((made) => made.status === 'running')) {
    const ended = runner?.ended.get(call.id);
    yield await endCall(call, { status: 'stopped', result: ended?.result ?? '', duration_ms: ended?.durationMs ?? null });
  }
  if (signal.aborted) finishReason = 'aborted';
  else if (failed) finishReason = 'error';
  // Reasoning that never reached an answer (stopped, failed) lasted until now.
  if (reasoningStartedAt !== null && text === '') reasoningMs = performance.now() - reasoningStartedAt;
  return {
    outcome: {
      text,
      citations,
      toolCalls,
      ...(reasoning ? { reasoning: { text: reasoning, ms: Math.round(reasoningMs) } } : {}),
      inputTokens: usage?.inputTokens ?? turn.estimatedInputTokens,
      outputTokens: usage?.outputTokens ?? estimateTokens(text),
      finishReason,
    },
    failure,
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Pauses before each new attempt of a final save whose connection was lost (57P01, a closed
 * socket): about 8 s in all, well within a lease, which the flush keeps renewing meanwhile.
 */
const SAVE_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];

/**
 * Saves the answer of a turn (domains/chat/service writeAnswer); returns the credits charged, or null
 * when it could not be saved: the database stayed unreachable through the retries, or a sweep saved
 * it first. A lost connection may hide a save that committed: the retry then finds the answer
 * metered (a unique violation) and tells its own save from a sweep's by the owner a sweep leaves.
 */
async function saveAnswer(deps: ChatDeps, turn: ChatTurn, outcome: StreamOutcome, interrupted: Interrupted): Promise<number | null> {
  const save = turnSave(turn, outcome, interrupted);
  const answerId = turn.meta.chatbot_message_id;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeAnswer(deps.db, save);
      break;
    } catch (error) {
      if (isUniqueViolation(error)) {
        const saved = await savedByItsOwner(deps.db, answerId).catch(() => false);
        if (!saved) deps.log.error({ answerId }, 'chat answer saved by a sweep before its own save');
        if (saved) break;
        return null;
      }
      const delay = SAVE_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isConnectionLost(error)) {
        deps.log.error({ err: error, answerId, attempts: attempt + 1 }, 'saving the chat answer failed');
        return null;
      }
      deps.log.warn({ err: error, answerId, attempt: attempt + 1 }, 'saving the chat answer lost its connection; retrying');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  const { tenant, member, chatbot, session } = turn;
  if (!turn.isTest && !chatbot.isDefault && !session.isVisitor && !session.isApi) {
    // The answer is saved; a failure here only leaves the recent chatbots list a send behind.
    await deps.db
      .transaction((tx) => rememberRecentChatbot(tx, member, chatbot.id, save.at))
      .catch((error: unknown) => deps.log.warn({ err: error, tenantId: tenant.id }, 'remembering the recent chatbot failed'));
  }
  return save.usage.reduce((sum, row) => sum + Number(row.credits), 0);
}

/** True when the answer was saved by its own process (which clears the owner), not by a sweep. */
async function savedByItsOwner(db: Database, answerId: number): Promise<boolean> {
  const [row] = await db
    .select({ streaming: sessionMessages.streaming, owner: sessionMessages.streamOwner })
    .from(sessionMessages)
    .where(eq(sessionMessages.id, answerId));
  return row !== undefined && !row.streaming && row.owner === null;
}

/** What saving an answer writes, whether its own process saves it or a sweep does. */
interface AnswerSave {
  answerId: number;
  /** The answer row's columns (the end of its streaming is added). */
  answer: Partial<typeof sessionMessages.$inferInsert>;
  /** The answer's usage row, and its web search's when it searched. */
  usage: (typeof usageRecords.$inferInsert)[];
  sessionId: number;
  /** The chatbot's message and token counters move by the answer; null for a test chat. */
  counters: { chatbotId: number; tokens: number } | null;
  /** The credit clock when it was saved: the usage row and the settlement count in the same month. */
  at: Date;
  /** The reservation settled to `cost`; null when nothing was reserved (a free model). */
  settlement: { reservation: Reservation; cost: number } | null;
}

/** The save of a turn's answer by the process that streamed it. */
function turnSave(turn: ChatTurn, outcome: StreamOutcome, interrupted: Interrupted): AnswerSave {
  const { tenant, member, model, session, chatbot } = turn;
  const free = isFreeModel(model, tenant);
  // An image answer costs its price per image, a text answer its tokens; web search is metered as a row of its own.
  const webCost = free ? 0 : webSearchCredits(model, turn.sources);
  const fullTokenCost = outcome.image ? outcome.image.credits : free ? 0 : messageCost(model, outcome);
  // Never more than the reservation (DESIGN §7), even when the model counted more input than estimated.
  const cost = turn.reservation ? Math.min(fullTokenCost + webCost, turn.reservation.amount) : fullTokenCost + webCost;
  const tokenCost = cost - webCost;
  const at = clock.now();
  const usageRow = {
    createdAt: at,
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
  return {
    answerId: turn.meta.chatbot_message_id,
    answer: {
      text: storableText(outcome.text),
      interrupted,
      inputTokens: outcome.inputTokens,
      outputTokens: outcome.outputTokens,
      citations: outcome.citations,
      toolCalls: outcome.toolCalls,
      reasoning: outcome.reasoning ? storableText(outcome.reasoning.text) : null,
      reasoningMs: outcome.reasoning?.ms ?? null,
      // Saved by its owner: a retry that finds the answer metered knows the save was its own.
      streamOwner: null,
    },
    usage: [
      {
        ...usageRow,
        inputTokens: outcome.inputTokens,
        outputTokens: outcome.outputTokens,
        credits: tokenCost,
        // An image is metered under the image model's name, by count.
        ...(outcome.image ? { llmModelId: null, modelName: outcome.image.model, imageCount: outcome.image.count } : {}),
      },
      ...(turn.sources.webSearchTokens === null ? [] : [{ ...usageRow, inputTokens: 0, outputTokens: 0, webSearchCount: 1, credits: webCost }]),
    ],
    sessionId: session.id,
    counters: turn.isTest ? null : { chatbotId: chatbot.id, tokens: outcome.inputTokens + outcome.outputTokens },
    at,
    settlement: turn.reservation ? { reservation: turn.reservation, cost } : null,
  };
}

/**
 * Saves an answer, meters its usage, moves the session's and the chatbot's counters and settles
 * its reservation, all in one statement: atomic without a transaction, and the rows other sends
 * update too (balances, the chatbot's counters) are locked only while it runs. The answer's own
 * process and the sweep build the same statement, so they take their locks in the same order, and
 * the answer's one usage row (a unique index) lets only the first of them through: the other's
 * statement fails whole.
 */
async function writeAnswer(db: Database, save: AnswerSave): Promise<void> {
  const period = periodOf(save.at);
  const cte = (name: string, statement: { getSQL(): SQL }) => sql`${sql.identifier(name)} as (${statement.getSQL()}),`;
  const statements = [
    cte(
      'answer',
      db
        .update(sessionMessages)
        .set({ ...save.answer, streaming: false, leaseExpiresAt: null })
        .where(eq(sessionMessages.id, save.answerId)),
    ),
    cte('usage', db.insert(usageRecords).values(save.usage)),
    cte('session', db.update(sessions).set({ lastChatAt: save.at }).where(eq(sessions.id, save.sessionId))),
  ];
  if (save.counters) {
    const { tokens } = save.counters;
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
            lastChatAt: save.at,
          })
          .where(eq(chatbots.id, save.counters.chatbotId)),
      ),
    );
  }
  const also = sql.join(statements, sql` `);
  const { settlement } = save;
  if (settlement) await settleCredits(db, settlement.reservation.id, settlement.reservation.amount, settlement.cost, also);
  else await db.execute(sql`with ${also} saved as (select 1) select 1 from saved`);
}

/** Answers one sweep saves at most; the next sweep takes the rest. */
const SWEEP_BATCH = 100;

/**
 * Saves the answers whose owner is gone: streaming, with a lease that ran out (their process died,
 * or lost the database for longer than a lease). Each is saved as interrupted with the text its
 * process last wrote, metered, and its reservation settled for what was produced: the estimated
 * input plus the saved text's tokens, never more than the reservation; an image answer costs its
 * reservation (the image's price) when its image was stored, nothing otherwise. An answer left
 * without a lease (by a release before leases) counts as abandoned 10 minutes after it started.
 * Runs at start-up and every STREAM_SWEEP_SECONDS in every process; two processes sweeping the
 * same answer save it once (writeAnswer). Compares with the database clock, which wrote the
 * leases. Returns how many answers it saved.
 */
export async function sweepAbandonedAnswers({ db, llm, log }: Pick<AppDeps, 'db' | 'llm' | 'log'>): Promise<number> {
  const imageModel = llm.imageModel().name;
  const reservationSettled = sql<boolean>`exists (select 1 from ${creditLedger} settlement where settlement.reservation_id = ${creditLedger.id})`;
  const hasImage = sql<boolean>`exists (select 1 from ${sessionMessageFiles} link where link.message_id = ${sessionMessages.id})`;
  const abandoned = await db
    .select({ answer: sessionMessages, session: sessions, member: members, model: llmModels, reservation: creditLedger, reservationSettled, hasImage })
    .from(sessionMessages)
    .innerJoin(sessions, eq(sessions.id, sessionMessages.sessionId))
    .innerJoin(members, eq(members.id, sessions.memberId))
    .leftJoin(llmModels, eq(llmModels.id, sessionMessages.llmModelId))
    .leftJoin(creditLedger, and(eq(creditLedger.kind, 'reservation'), eq(creditLedger.messageId, sessionMessages.id)))
    .where(
      and(eq(sessionMessages.streaming, true), sql`coalesce(${sessionMessages.leaseExpiresAt}, ${sessionMessages.createdAt} + interval '10 minutes') < now()`),
    )
    .orderBy(sessionMessages.id)
    .limit(SWEEP_BATCH);
  let saved = 0;
  for (const row of abandoned) {
    try {
      await writeAnswer(db, sweptSave(row, imageModel));
      saved += 1;
    } catch (error) {
      // Saved meanwhile by its own process or another sweep.
      if (isUniqueViolation(error)) continue;
      // Without the database the other answers fail too: the next sweep tries them all again.
      if (isConnectionLost(error)) throw error;
      // One answer that cannot be saved must not keep the sweep from the others.
      log.error({ err: error, answerId: row.answer.id }, 'saving an abandoned chat answer failed');
    }
  }
  const released = await releaseOrphanedReservations(db);
  if (released > 0) log.warn({ count: released }, 'released the credit reservations of chat answers deleted while they streamed');
  return saved;
}

/** A row of the sweep's query. */
interface AbandonedAnswer {
  answer: typeof sessionMessages.$inferSelect;
  session: SessionRow;
  member: MemberRow;
  model: LlmModelRow | null;
  reservation: typeof creditLedger.$inferSelect | null;
  reservationSettled: boolean;
  hasImage: boolean;
}

/** The save of an abandoned answer: interrupted, with the text its process wrote last. */
function sweptSave({ answer, session, member, model, reservation, reservationSettled, hasImage }: AbandonedAnswer, imageModel: string): AnswerSave {
  const inputTokens = answer.inputTokens ?? 0;
  const outputTokens = estimateTokens(answer.text) + estimateTokens(answer.reasoning ?? '');
  // A reservation already settled (a send taken back for depleted credits, whose cleanup failed) is not settled twice.
  const held = reservation && !reservationSettled ? { id: reservation.id, amount: -Number(reservation.amount) } : null;
  const produced = hasImage ? (held?.amount ?? 0) : model ? messageCost(model, { inputTokens, outputTokens }) : 0;
  const cost = held ? Math.min(held.amount, produced) : 0;
  const at = clock.now();
  // The reservation names the group that paid (the member's default group then).
  const memberGroupId = reservation ? reservation.memberGroupId : member.defaultMemberGroupId;
  return {
    answerId: answer.id,
    // A call still running when its process died ends as stopped (docs/decisions "Tools in the chat").
    answer: {
      interrupted: 'interrupted',
      inputTokens,
      outputTokens,
      toolCalls: answer.toolCalls.map((call) => (call.status === 'running' ? { ...call, status: 'stopped' as const } : call)),
    },
    usage: [
      {
        createdAt: at,
        tenantId: session.tenantId,
        memberId: member.id,
        memberGroupId,
        chatbotId: session.chatbotId,
        sessionId: session.id,
        messageId: answer.id,
        isTest: session.isTest,
        credits: cost,
        ...(hasImage
          ? { llmModelId: null, modelName: imageModel, inputTokens: 0, outputTokens: 0, imageCount: 1 }
          : { llmModelId: model?.id ?? null, modelName: model?.name ?? '', inputTokens, outputTokens }),
      },
    ],
    sessionId: session.id,
    counters: session.isTest ? null : { chatbotId: session.chatbotId, tokens: inputTokens + outputTokens },
    at,
    settlement: held ? { reservation: held, cost } : null,
  };
}

import { randomBytes } from 'node:crypto';
import type { ModelMessage } from 'ai';
import { ANSWER_NOT_SAVED_FRAME, SERVER_SHUTTING_DOWN_FRAME, chatBodySchema } from '../../../shared/api/chat';
import type { ChatCompletion, ChatCompletionBody, ChatCompletionChunk, OpenAiMessage, OpenAiModel } from '../../../shared/api/openai';
import { OPENAI_MODEL_OWNER } from '../../../shared/domain/apiKeys';
import type { ChatbotRow, TenantRow } from '../../db/rows';
import { AppError } from '../../errors';
import { type ApiKeyCaller, keyChatbots } from '../apiKeys/service';
import { type SendDeps, checkSend, openTurn, streamAnswer } from '../chat/service';
import type { ChatDeps, ChatTurn, Sampling } from '../chat/turn';

/**
 * The OpenAI-compatible API on the app's own chat pipeline: a call is one send to the chatbot
 * named by `model`, with the chatbot's instructions, model, retrieval, input guard, credit
 * reservation and settlement, billed to the key's owner. Each call opens a session of its own
 * flagged `is_api` (not listed in My chats) whose usage rows carry the key's id.
 */

const modelId = (chatbot: ChatbotRow) => chatbot.hashId;
const chatbotName = (chatbot: ChatbotRow) => chatbot.enName || chatbot.koName || chatbot.hashId;
const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export async function listKeyModels(deps: { db: SendDeps['db'] }, caller: ApiKeyCaller): Promise<{ object: 'list'; data: OpenAiModel[] }> {
  const chatbots = await keyChatbots(deps.db, caller);
  return {
    object: 'list',
    data: chatbots.map((chatbot) => ({
      id: modelId(chatbot),
      object: 'model',
      created: unixSeconds(chatbot.createdAt),
      owned_by: OPENAI_MODEL_OWNER,
      name: chatbotName(chatbot),
    })),
  };
}

/** The chatbot `model` names (hash id, public hash id or numeric id) among those the key may use; 404 otherwise. */
async function findKeyChatbot(deps: { db: SendDeps['db'] }, caller: ApiKeyCaller, model: string): Promise<ChatbotRow> {
  const chatbot = (await keyChatbots(deps.db, caller)).find((candidate) => [candidate.hashId, candidate.publicHashId, String(candidate.id)].includes(model));
  if (!chatbot) throw new AppError(404, 'not_found', `The model '${model}' does not exist or this API key may not use it.`);
  return chatbot;
}

function messageText(message: OpenAiMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  // The contract lets text parts only through (others are refused with 400).
  return (content ?? []).map((part) => part.text ?? '').join('\n');
}

const badRequest = (message: string) => new AppError(400, 'validation_error', message);

/** The call's sampling parameters in the AI SDK's names; absent or null ones leave the chatbot's. */
function callSampling(body: ChatCompletionBody): Sampling {
  // max_completion_tokens is OpenAI's newer name for max_tokens; given both, the smaller limits.
  const limits = [body.max_tokens, body.max_completion_tokens].filter((limit) => typeof limit === 'number');
  return {
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    maxOutputTokens: limits.length > 0 ? Math.min(...limits) : undefined,
    stopSequences: typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined),
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    seed: body.seed ?? undefined,
  };
}

/**
 * Checks and opens the turn of a call (every status of the app's send: 402, 403, 404, 413, 422,
 * 428). The caller's whole conversation goes through the input guard, not only its last message,
 * since the client, not a stored session, supplies it.
 */
export async function openApiTurn(
  deps: SendDeps & Pick<ChatDeps, 'answers'>,
  tenant: TenantRow,
  caller: ApiKeyCaller,
  body: ChatCompletionBody,
): Promise<ChatTurn> {
  const chatbot = await findKeyChatbot(deps, caller, body.model);
  const conversation = body.messages.filter((message) => message.role !== 'tool');
  const last = conversation.at(-1);
  if (!last || last.role !== 'user') throw badRequest("The last message must be the user's.");
  const instructions: string[] = [];
  const history: ModelMessage[] = [];
  for (const message of conversation.slice(0, -1)) {
    const text = messageText(message).trim();
    if (!text) continue;
    if (message.role === 'assistant') history.push({ role: 'assistant', content: text });
    else {
      const checked = (await deps.guard.check(tenant.id, text)).text;
      if (message.role === 'user') history.push({ role: 'user', content: checked });
      else instructions.push(checked);
    }
  }
  const send = await checkSend(deps, tenant, caller.member, chatbot.id, chatBodySchema.parse({ text: messageText(last) }), {
    history,
    instructions: instructions.join('\n\n'),
    sampling: callSampling(body),
  });
  return openTurn(deps.db, { ...send, newSession: { isApi: true }, apiKeyId: caller.key.id }, deps.answers.lease);
}

/** What a finished call streamed, in OpenAI's terms. */
export interface ApiOutcome {
  finishReason: 'stop' | 'length';
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  /**
   * Why the call did not complete, as the stream's error frame said: the model failed (the answer
   * is saved as failed and only what was streamed is charged), the answer could not be saved, or
   * the server is shutting down. Null when it completed and was saved.
   */
  failure: AppError | null;
}

/** Identifies one completion (and every chunk of it). */
export const completionId = () => `chatcmpl-${randomBytes(12).toString('base64url')}`;

/**
 * Runs the turn through the app's stream (which saves the answer and settles credits at its end),
 * handing each text delta to `onText`. Abort `signal` when the client goes away.
 */
export async function runApiTurn(deps: ChatDeps, turn: ChatTurn, signal: AbortSignal, onText: (delta: string) => void): Promise<ApiOutcome> {
  const outcome: ApiOutcome = { finishReason: 'stop', usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, failure: null };
  for await (const frame of streamAnswer(deps, turn, signal)) {
    if (frame.type === 'text') onText(frame.delta);
    else if (frame.type === 'usage')
      outcome.usage = { prompt_tokens: frame.input_tokens, completion_tokens: frame.output_tokens, total_tokens: frame.input_tokens + frame.output_tokens };
    else if (frame.type === 'error') outcome.failure = callFailure(frame.code);
    else if (frame.type === 'end' && frame.finish_reason === 'length') outcome.finishReason = 'length';
  }
  return outcome;
}

/**
 * The status of a call whose answer did not complete: 502 when the model failed, 503 when the
 * answer was not saved or the server is shutting down (trying again, on another process, helps).
 */
function callFailure(code: string): AppError {
  if (code === ANSWER_NOT_SAVED_FRAME.code) return new AppError(503, code, ANSWER_NOT_SAVED_FRAME.message);
  if (code === SERVER_SHUTTING_DOWN_FRAME.code) return new AppError(503, code, SERVER_SHUTTING_DOWN_FRAME.message);
  return new AppError(502, 'upstream_failed', 'The model could not answer. Please try again.');
}

export function completion(id: string, model: string, created: number, text: string, outcome: ApiOutcome): ChatCompletion {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: outcome.finishReason, logprobs: null }],
    usage: outcome.usage,
  };
}

export function completionChunk(
  id: string,
  model: string,
  created: number,
  choice: Partial<ChatCompletionChunk['choices'][number]> | null,
  usage?: ApiOutcome['usage'],
): ChatCompletionChunk {
  return {
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: choice ? [{ index: 0, delta: {}, finish_reason: null, logprobs: null, ...choice }] : [],
    ...(usage ? { usage } : {}),
  };
}

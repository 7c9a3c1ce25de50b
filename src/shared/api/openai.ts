import { z } from 'zod';
import { CHAT_SEND_ERRORS } from './chat';
import { defineEndpoint } from './endpoint';
import { OPENAI_COMPATIBLE_PATH } from '../domain/apiKeys';

/**
 * The OpenAI-compatible API (chat completions and models), called with an API key as
 * `Authorization: Bearer <key>`. `model` names a chatbot, which decides the LLM and instructions.
 * The common sampling parameters (temperature, top_p, max_tokens / max_completion_tokens, stop,
 * presence and frequency penalties, seed) override the chatbot's own for that call. What cannot be
 * honoured is refused with 400 naming the parameter, never silently ignored: `n` > 1, tools and
 * functions, logprobs, JSON response formats, audio, and content parts other than text. Parameters
 * that change nothing a caller can observe (user, metadata, store, service_tier,
 * parallel_tool_calls…) are accepted.
 */
const NO_TOOLS = 'Tools and function calling are not supported by this API.';
const NO_AUDIO = 'Audio is not supported by this API: it answers with text.';

/** Only text parts are read. Refused by a refinement, not a literal: inside the string-or-parts union a literal's message would be lost to a generic union error. */
const contentPartSchema = z
  .looseObject({ type: z.string().meta({ description: 'Only `text`; other part types are refused (400).' }), text: z.string().optional() })
  .superRefine((part, context) => {
    if (part.type !== 'text')
      context.addIssue({
        code: 'custom',
        path: ['type'],
        message: `Content parts of type '${part.type}' are not supported by this API: send text parts only.`,
      });
    else if (part.text === undefined) context.addIssue({ code: 'custom', path: ['text'], message: 'A text part needs its text.' });
  });
export const openAiMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z
    .union([z.string(), z.array(contentPartSchema)])
    .nullable()
    .optional(),
});
export type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

const penalty = z.number().min(-2).max(2).nullable().optional();
const tokenLimit = z.number().int().positive().nullable().optional();

export const chatCompletionBodySchema = z.looseObject({
  /** A chatbot the key may use: its `hash_id` (as `GET /models` lists it) or its numeric id. */
  model: z.string().min(1).max(64),
  messages: z.array(openAiMessageSchema).min(1).max(500),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  /** Capped at the model's context limit; with `max_completion_tokens` too, the smaller counts. */
  max_tokens: tokenLimit,
  max_completion_tokens: tokenLimit,
  stop: z
    .union([z.string(), z.array(z.string()).max(4)])
    .nullable()
    .optional(),
  presence_penalty: penalty,
  frequency_penalty: penalty,
  seed: z.number().int().nullable().optional(),
  n: z.literal(1, { error: 'n other than 1 is not supported by this API: it answers with one choice.' }).nullable().optional(),
  tools: z.array(z.unknown()).max(0, { error: NO_TOOLS }).nullable().optional(),
  tool_choice: z.literal('none', { error: NO_TOOLS }).nullable().optional(),
  functions: z.array(z.unknown()).max(0, { error: NO_TOOLS }).nullable().optional(),
  function_call: z.literal('none', { error: NO_TOOLS }).nullable().optional(),
  logprobs: z.literal(false, { error: 'logprobs are not supported by this API.' }).nullable().optional(),
  top_logprobs: z.null({ error: 'top_logprobs is not supported by this API.' }).optional(),
  response_format: z
    .looseObject({ type: z.literal('text', { error: "A response_format other than {type: 'text'} (JSON mode, JSON schema) is not supported by this API." }) })
    .nullable()
    .optional(),
  modalities: z
    .array(z.string())
    .refine((modalities) => modalities.every((modality) => modality === 'text'), { error: NO_AUDIO })
    .nullable()
    .optional(),
  audio: z.null({ error: NO_AUDIO }).optional(),
});
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

export const completionUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const FINISH_REASONS = ['stop', 'length'] as const;

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      finish_reason: z.enum(FINISH_REASONS),
      logprobs: z.null(),
    }),
  ),
  usage: completionUsageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** One `data:` frame of a streamed completion; the stream ends with `data: [DONE]`. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: { index: number; delta: { role?: 'assistant'; content?: string }; finish_reason: (typeof FINISH_REASONS)[number] | null; logprobs: null }[];
  usage?: z.infer<typeof completionUsageSchema> | null;
}

export const openAiModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** The chatbot's names, so a client can label it. */
  name: z.string(),
});
export type OpenAiModel = z.infer<typeof openAiModelSchema>;

/** The OpenAI error body every failure of this API answers with. */
export const openAiErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.string().nullable(), param: z.string().nullable() }),
});
export type OpenAiError = z.infer<typeof openAiErrorSchema>;

export const chatCompletions = defineEndpoint({
  method: 'POST',
  path: `${OPENAI_COMPATIBLE_PATH}/chat/completions`,
  access: 'apiKey',
  errors: {
    ...CHAT_SEND_ERRORS,
    502: ['upstream_failed'],
    503: ['answer_not_saved', 'server_shutting_down'],
  },
  body: chatCompletionBodySchema,
  response: chatCompletionSchema,
  summary:
    'OpenAI-compatible chat completion with a chatbot (`model` = its hash_id). `stream: true` answers Server-Sent Events of chat.completion.chunk ending with [DONE]. Errors: 400 malformed, out of range or unsupported parameter (`param` names it), 401 key, 402 credits, 403 model not allowed, 404 chatbot, 413 context, 422 restricted term, 428 personal data, 429 rate limit',
  tags: ['openai'],
});

export const listModels = defineEndpoint({
  method: 'GET',
  path: `${OPENAI_COMPATIBLE_PATH}/models`,
  access: 'apiKey',
  errors: {},
  response: z.object({ object: z.literal('list'), data: z.array(openAiModelSchema) }),
  summary: 'The chatbots this API key may use, as OpenAI models',
  tags: ['openai'],
});

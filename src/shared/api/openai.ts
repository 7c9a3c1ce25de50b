import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { OPENAI_COMPATIBLE_PATH } from '../domain/apiKeys';

/**
 * The OpenAI-compatible API (chat completions and models), called with an API key as
 * `Authorization: Bearer <key>`. Only the fields this server uses are named; other OpenAI
 * parameters are accepted and ignored, since the chatbot decides model, instructions and sampling.
 */
const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
export const openAiMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(contentPartSchema)]).nullable().optional(),
});
export type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

export const chatCompletionBodySchema = z.looseObject({
  /** A chatbot the key may use: its `hash_id` (as `GET /models` lists it) or its numeric id. */
  model: z.string().min(1).max(64),
  messages: z.array(openAiMessageSchema).min(1).max(500),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
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
  body: chatCompletionBodySchema,
  response: chatCompletionSchema,
  summary:
    'OpenAI-compatible chat completion with a chatbot (`model` = its hash_id). `stream: true` answers Server-Sent Events of chat.completion.chunk ending with [DONE]. Errors: 401 key, 402 credits, 403 model not allowed, 404 chatbot, 413 context, 422 restricted term, 428 personal data, 429 rate limit',
  tags: ['openai'],
});

export const listModels = defineEndpoint({
  method: 'GET',
  path: `${OPENAI_COMPATIBLE_PATH}/models`,
  access: 'apiKey',
  response: z.object({ object: z.literal('list'), data: z.array(openAiModelSchema) }),
  summary: 'The chatbots this API key may use, as OpenAI models',
  tags: ['openai'],
});

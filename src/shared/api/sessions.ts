import { z } from 'zod';
import { citationSchema } from './chat';
import { defineEndpoint } from './endpoint';
import { idSchema, idTextSchema, okSchema, pageQuerySchema, paginatedSchema } from './common';
import { SESSIONS_PAGE_SIZE, SESSION_HISTORY_PAGE_SIZE } from '../domain/pagination';

export const sessionSchema = z.object({
  id: z.number().int(),
  hash_id: z.string(),
  chatbot_id: z.number().int(),
  chatbot: z.object({ id: z.number().int() }),
  title: z.string().nullable(),
  is_public: z.boolean(),
  creator_name: z.string(),
  last_chat_at: z.string().nullable(),
  created_at: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

export const sessionFileSchema = z.object({ id: z.number().int(), url: z.string(), type: z.string(), name: z.string() });
export type SessionFile = z.infer<typeof sessionFileSchema>;

export const sessionMessageSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  text: z.string(),
  speaker_type: z.enum(['member', 'chatbot']),
  files: z.array(sessionFileSchema),
  /**
   * Why a chatbot answer ended early: the member stopped it, the model failed, or its server
   * stopped streaming it (a crash, a shutdown: `interrupted`, with the text as far as it was
   * saved); null when it completed or is still streaming.
   */
  interrupted: z.enum(['stopped', 'failed', 'interrupted']).nullable(),
  /** The answer is still being written (on another device, or by a stream this client lost); its text so far. */
  streaming: z.boolean(),
  /** The model's reasoning (thinking mode), null when it did not reason. */
  reasoning: z.string().nullable(),
  /** How long the model reasoned, for "thought for N s". */
  reasoning_ms: z.number().int().nullable(),
  /** Sources of a chatbot answer (retrieval, web search), in the order they were cited. */
  citations: z.array(citationSchema),
});
export type SessionMessage = z.infer<typeof sessionMessageSchema>;

export const hashParamsSchema = z.object({ hash: z.string().min(1).max(64) });

export const listSessions = defineEndpoint({
  method: 'GET',
  path: '/sessions/',
  access: 'member',
  errors: {},
  query: pageQuerySchema(SESSIONS_PAGE_SIZE).extend({ chatbot_id: idTextSchema.optional() }),
  response: paginatedSchema(sessionSchema),
  summary: 'The member’s sessions, most recent chat first',
  tags: ['sessions'],
});

export const getSession = defineEndpoint({
  method: 'GET',
  path: '/sessions/:hash/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  response: sessionSchema,
  summary: 'One session of the member',
  tags: ['sessions'],
});

export const historyResponseSchema = z.object({
  /** Oldest first. */
  items: z.array(sessionMessageSchema),
  has_more: z.boolean(),
  /** Estimated tokens of the whole conversation, for the long-conversation warning. */
  context_tokens: z.number().int(),
});

export const getSessionHistory = defineEndpoint({
  method: 'GET',
  path: '/sessions/:hash/history/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  query: z.object({
    size: z.coerce.number().int().min(1).max(100).default(SESSION_HISTORY_PAGE_SIZE),
    /** Return messages older than this id (the oldest one the client already has). */
    first_id: idTextSchema.optional(),
  }),
  response: historyResponseSchema,
  summary: 'Messages of a session, newest page first, `first_id` pages backwards',
  tags: ['sessions'],
});

export const patchSession = defineEndpoint({
  method: 'PATCH',
  path: '/sessions/:hash/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  body: z.object({
    title: z.string().trim().min(1).max(200).optional(),
    chatbot_id: idSchema.optional(),
    /** Share the session: anyone with its link may read it (GET /public/sessions/{hash}/). */
    is_public: z.boolean().optional(),
  }),
  response: sessionSchema,
  summary: 'Rename a session, move it to another chatbot, or make it public or private',
  tags: ['sessions'],
});

export const generateSessionTitle = defineEndpoint({
  method: 'PATCH',
  path: '/sessions/:hash/generate-title/',
  access: 'member',
  errors: { 403: ['no_history'], 404: ['not_found'] },
  params: hashParamsSchema,
  response: sessionSchema,
  summary: 'Title the session with the chatbot’s model in the member’s language (first message as fallback; 403 when it has no history)',
  tags: ['sessions'],
});

export const deleteSession = defineEndpoint({
  method: 'DELETE',
  path: '/sessions/:hash/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  response: okSchema,
  summary: 'Delete a session and its messages',
  tags: ['sessions'],
});

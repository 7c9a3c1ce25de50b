import { z } from 'zod';
import { chatBodySchema } from './chat';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, languageSchema } from './common';
import { getSessionHistory, hashParamsSchema, historyResponseSchema } from './sessions';

/**
 * A shared session as a signed-out visitor sees it (spec §2 public shared session page): the
 * creator, the chatbot and whether a visitor may chat with it.
 */
export const publicSessionSchema = z.object({
  hash_id: z.string(),
  title: z.string().nullable(),
  /** The member who shared it; null for a session a visitor started on the public page. */
  creator_name: z.string().nullable(),
  chatbot: z.object({
    id: z.number().int(),
    en_name: z.string(),
    ko_name: z.string(),
    profile_image_url: z.string().nullable(),
    /** Visitors may start a chat only with a public chatbot. */
    is_public: z.boolean(),
  }),
  last_chat_at: z.string().nullable(),
  created_at: z.string(),
});
export type PublicSession = z.infer<typeof publicSessionSchema>;

export const getPublicSession = defineEndpoint({
  method: 'GET',
  path: '/public/sessions/:hash/',
  access: 'public',
  params: hashParamsSchema,
  response: publicSessionSchema,
  summary: 'A public session (404 when it is private or does not exist)',
  tags: ['public'],
});

export const getPublicSessionHistory = defineEndpoint({
  method: 'GET',
  path: '/public/sessions/:hash/history/',
  access: 'public',
  params: hashParamsSchema,
  query: getSessionHistory.query,
  response: historyResponseSchema,
  summary: 'Messages of a public session, newest page first, `first_id` pages backwards',
  tags: ['public'],
});

export const generatePublicSessionTitle = defineEndpoint({
  method: 'PATCH',
  path: '/public/sessions/:hash/generate-title/',
  access: 'public',
  params: hashParamsSchema,
  /** The visitor's interface language, for the title (they have no member record). */
  query: z.object({ language: languageSchema.optional() }),
  response: publicSessionSchema,
  summary: 'Title an untitled session a visitor started; other public sessions come back unchanged',
  tags: ['public'],
});

/** A visitor's message: text only (no files, task modes or tests), plus their language for the answer. */
export const publicChatBodySchema = chatBodySchema.pick({ text: true, session_hash_id: true, session_title: true }).extend({
  language: languageSchema.optional(),
});
export type PublicChatBody = z.input<typeof publicChatBodySchema>;

export const publicChat = defineEndpoint({
  method: 'POST',
  path: '/public/chatbots/:id/chat/',
  access: 'public',
  params: idParamsSchema,
  body: publicChatBodySchema,
  response: z.string().describe('text/event-stream of `data: ChatFrame` lines'),
  summary: 'A signed-out visitor chats with a public chatbot (404 otherwise); the chatbot creator’s credits pay',
  tags: ['public'],
});

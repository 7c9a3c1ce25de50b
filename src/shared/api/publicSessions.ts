import { z } from 'zod';
import { CHAT_SEND_ERRORS, chatFieldsSchema } from './chat';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, languageSchema } from './common';
import { categorySchema } from './categories';
import { getSessionHistory, hashParamsSchema, historyResponseSchema } from './sessions';
import { taskModeSchema } from './taskModes';

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
    /** Its public page's id: `/public/chatbots/{hash}/` (what a visitor may use there). */
    hash_id: z.string(),
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
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  response: publicSessionSchema,
  summary: 'A public session (404 when it is private or does not exist)',
  tags: ['public'],
});

export const getPublicSessionHistory = defineEndpoint({
  method: 'GET',
  path: '/public/sessions/:hash/history/',
  access: 'public',
  errors: { 404: ['not_found'] },
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
  errors: { 403: ['no_history'], 404: ['not_found'] },
  params: hashParamsSchema,
  /** The visitor's interface language, for the title (they have no member record). */
  query: z.object({ language: languageSchema.optional() }),
  response: publicSessionSchema,
  summary: 'Title an untitled session a visitor started; other public sessions come back unchanged',
  tags: ['public'],
});

/**
 * What a visitor may use in a chat with a public chatbot (docs/decisions/0019-public-chatbot-visitors.md): thinking
 * when its model reasons, web search when the server has a search service, the tenant's task modes.
 * Files never: a visitor has no upload path (docs/decisions/0019-public-chatbot-visitors.md).
 */
export const visitorModesSchema = z.object({
  thinking: z.boolean(),
  web_search: z.boolean(),
  task_modes: z.array(taskModeSchema),
});
export type VisitorModes = z.infer<typeof visitorModesSchema>;

/** A public chatbot as a signed-out visitor sees it on its public page (spec §6 public paths). */
export const publicChatbotSchema = z.object({
  id: z.number().int(),
  hash_id: z.string(),
  public_hash_id: z.string().nullable(),
  en_name: z.string(),
  ko_name: z.string(),
  profile_image_url: z.string().nullable(),
  en_key_features: z.string(),
  ko_key_features: z.string(),
  categories: z.array(categorySchema),
  creator_name: z.string().nullable(),
  visitor_modes: visitorModesSchema,
});
export type PublicChatbot = z.infer<typeof publicChatbotSchema>;

export const getPublicChatbot = defineEndpoint({
  method: 'GET',
  path: '/public/chatbots/:hash/',
  access: 'public',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  response: publicChatbotSchema,
  summary: 'A public chatbot by its hash id or its custom public link (404 when it is not public or not the tenant’s)',
  tags: ['public'],
});

/**
 * A visitor's message: the spec's chat fields a visitor may use (see visitorModesSchema; `file_ids`
 * must stay empty), plus their language for the answer. No test chats, no image generation.
 */
export const publicChatBodySchema = chatFieldsSchema
  .pick({ text: true, file_ids: true, session_hash_id: true, session_title: true, task_mode_id: true, web_search: true, thinking: true })
  .extend({ language: languageSchema.optional() });
export type PublicChatBody = z.input<typeof publicChatBodySchema>;

export const publicChat = defineEndpoint({
  method: 'POST',
  path: '/public/chatbots/:id/chat/',
  access: 'public',
  errors: { ...CHAT_SEND_ERRORS, 403: [...CHAT_SEND_ERRORS[403], 'visitor_files_not_allowed'] },
  params: idParamsSchema,
  body: publicChatBodySchema,
  response: z.string().describe('text/event-stream of `data: ChatFrame` lines'),
  summary:
    'A signed-out visitor chats with a public chatbot (404 otherwise); the chatbot creator’s credits pay. 403 `visitor_files_not_allowed`, 429 `rate_limited` per client IP',
  tags: ['public'],
});

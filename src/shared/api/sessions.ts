import { z } from 'zod';
import { citationSchema, toolCallSchema } from './chat';
import { defineEndpoint } from './endpoint';
import { isWellFormedText } from '../domain/text';
import { idSchema, idTextSchema, okSchema, pageQuerySchema, paginatedSchema } from './common';
import { SESSIONS_PAGE_SIZE, SESSION_HISTORY_PAGE_SIZE } from '../domain/pagination';
import {
  SESSION_SEARCH_MAX_LENGTH,
  SESSION_SEARCH_MAX_WORDS,
  SESSION_SEARCH_RANKED_MATCHES_MAX,
  SESSION_SEARCH_MIN_WORD_LENGTH,
  characterCount,
  searchWords,
} from '../domain/sessionSearch';
import { FEEDBACK_RATINGS, FEEDBACK_REASONS } from '../domain/feedback';

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

export const feedbackRatingSchema = z.enum(FEEDBACK_RATINGS);
export const feedbackReasonSchema = z.enum(FEEDBACK_REASONS);

/** A member's rating of one answer, as they gave it (issue 23; endpoints in ./feedback.ts). */
export const answerFeedbackSchema = z.object({
  rating: feedbackRatingSchema,
  /** Down ratings only; null when none was given. */
  reason: feedbackReasonSchema.nullable(),
  comment: z.string().nullable(),
  updated_at: z.string(),
});
export type AnswerFeedback = z.infer<typeof answerFeedbackSchema>;
/** A file a message carried, by name only (a chat's export holds no file's content). */
export const namedFileSchema = z.object({ name: z.string().max(500).refine(isWellFormedText), type: z.string().max(500).refine(isWellFormedText) });
export type NamedFile = z.infer<typeof namedFileSchema>;

/** How a message recreated from a chat's export (POST /sessions/import/) is marked: when, and the files the original carried. */
export const importedMarkSchema = z.object({ at: z.string(), files: z.array(namedFileSchema) });
export type ImportedMark = z.infer<typeof importedMarkSchema>;

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
  /** The tool calls of a chatbot answer, in the order they were made (issue 24). */
  tool_calls: z.array(toolCallSchema),
  /** The member's own rating of a chatbot answer; null when unrated, for member messages, and on shared sessions. */
  feedback: answerFeedbackSchema.nullable(),
  /** Set when the message was imported from a chat's export: never sent to a model, charged nothing. */
  imported: importedMarkSchema.nullable(),
  /** The message this one follows on its branch (an answer's question; a question's previous answer); null for the first. */
  parent_id: z.number().int().nullable(),
  /** How many versions this point of the conversation has (regenerated answers, edited messages): 1 without branches. */
  sibling_count: z.number().int(),
  /** Which of them this is, from 1 (the oldest) to `sibling_count`. */
  sibling_position: z.number().int(),
});
export type SessionMessage = z.infer<typeof sessionMessageSchema>;

export const hashParamsSchema = z.object({ hash: z.string().min(1).max(64) });

/** Where the search words occur in a text: `[start, end)` in UTF-16 code units (JavaScript string indexes). */
export const textRangeSchema = z.object({ start: z.number().int(), end: z.number().int() });
export type TextRange = z.infer<typeof textRangeSchema>;

/** Why a session was found by `search_term`: where the title matches, and the newest message that matches. */
export const sessionSearchMatchSchema = z.object({
  /** Ranges of the words in the title; empty when the title does not contain them all. */
  title_ranges: z.array(textRangeSchema),
  /** How many messages of the session contain all the words. */
  message_count: z.number().int(),
  /** The newest message containing the words, as a short plain-text snippet around the first match ("…" where cut); null when only the title matches. */
  message: z
    .object({
      id: z.number().int(),
      speaker_type: z.enum(['member', 'chatbot']),
      snippet: z.string(),
      ranges: z.array(textRangeSchema),
    })
    .nullable(),
});
export type SessionSearchMatch = z.infer<typeof sessionSearchMatchSchema>;

/** A session of the list; `match` only when the list was searched. */
export const listedSessionSchema = sessionSchema.extend({ match: sessionSearchMatchSchema.optional() });
export type ListedSession = z.infer<typeof listedSessionSchema>;

export const sessionSearchTermSchema = z
  .string()
  .trim()
  .max(SESSION_SEARCH_MAX_LENGTH)
  .refine((term) => searchWords(term).length <= SESSION_SEARCH_MAX_WORDS, { message: `At most ${SESSION_SEARCH_MAX_WORDS} words.` })
  .refine((term) => searchWords(term).every((word) => characterCount(word) >= SESSION_SEARCH_MIN_WORD_LENGTH), {
    message: `Every word has at least ${SESSION_SEARCH_MIN_WORD_LENGTH} characters.`,
  });

/**
 * The list, or its search. A term found in more than SESSION_SEARCH_RANKED_MATCHES_MAX messages (of
 * all the organisation's chats) is not counted to the end: its results are ranked title matches
 * first, then most recent chat (not by the number of matching messages), and when more follow this
 * page, `total_items` counts the results up to this page plus one and `total_is_lower_bound` is true.
 */
export const sessionSearchPageSchema = paginatedSchema(listedSessionSchema).extend({
  total_is_lower_bound: z
    .boolean()
    .optional()
    .describe(
      `True when the term is in more than ${SESSION_SEARCH_RANKED_MATCHES_MAX} messages and more results follow this page: total_items then counts the results up to this page plus one.`,
    ),
});
export type SessionSearchPage = z.infer<typeof sessionSearchPageSchema>;

export const listSessions = defineEndpoint({
  method: 'GET',
  path: '/sessions/',
  access: 'member',
  errors: {},
  query: pageQuerySchema(SESSIONS_PAGE_SIZE).extend({
    chatbot_id: idTextSchema.optional(),
    /**
     * Search across the member's chats: sessions whose title or one of whose messages contains every
     * word (any part of a word, case-insensitive, Korean included), ranked title matches first, then
     * by the number of matching messages, then most recent chat; a very common term by recency alone
     * (see `total_is_lower_bound`). Empty: the plain list.
     */
    search_term: sessionSearchTermSchema.optional(),
  }),
  response: sessionSearchPageSchema,
  summary: 'The member’s sessions, most recent chat first; `search_term` searches titles and messages',
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

/** A page of the session's active branch (the one the member chose last, else the newest message's). */
export const historyResponseSchema = z.object({
  /** Oldest first. */
  items: z.array(sessionMessageSchema),
  has_more: z.boolean(),
  /** Estimated tokens of the active branch (what the next send carries), for the long-conversation warning; counted on the newest page only (0 on a `first_id` page). */
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
  summary: 'Messages of the session’s active branch, newest page first, `first_id` pages backwards along it',
  tags: ['sessions'],
});

export const switchBranch = defineEndpoint({
  method: 'PUT',
  path: '/sessions/:hash/branch/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  body: z.object({
    /** With `position`: a message of the active branch that has siblings. Alone: any message of the session (a search result). */
    message_id: idSchema,
    /**
     * Which of its versions to show, from 1 (its `sibling_position` numbering). Without it, the branch
     * through the message is shown: unchanged when the message is on the active branch, else the branch
     * through it continued to its newest message.
     */
    position: z.number().int().min(1).optional(),
  }),
  response: historyResponseSchema,
  summary:
    'Show another version of a message, or the branch through a message (it becomes the session’s active branch, for every device); answers the first history page of that branch (404 for a message or version the session does not have)',
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

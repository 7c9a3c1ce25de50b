/** Chat sessions and their messages. */
import { sql } from 'drizzle-orm';
import type { Citation, ToolCall } from '../../../shared/api/chat';
import type { ImportedMark } from '../../../shared/api/sessions';
import { type AnyPgColumn, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { llmModels, chatbots } from './chatbots';
import { id, createdAt } from './columns';
import { fileId } from './files';
import { memberId } from './members';
import { tenantId } from './tenants';

export const speakerTypeEnum = pgEnum('speaker_type', ['member', 'chatbot']);

/** Why an answer ended early: the member stopped it, the model failed, or its server stopped streaming it (crash, shutdown). */
export const interruptedEnum = pgEnum('interrupted', ['stopped', 'failed', 'interrupted']);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tenantId: tenantId(),
    hashId: text('hash_id').notNull().unique(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    memberId: memberId(),
    title: text('title'),
    isPublic: boolean('is_public').notNull().default(false),
    /**
     * Started by a signed-out visitor on a public chatbot: held by the chatbot's creator (whose
     * credits pay) but not one of their chats, and public from the start so its link keeps working.
     */
    isVisitor: boolean('is_visitor').notNull().default(false),
    /** Set once a message of the session carries files, so a send in a session without any skips looking for them. */
    hasFiles: boolean('has_files').notNull().default(false),
    /** A Studio test chat (`is_test`): its author's only, never listed in My chats. */
    isTest: boolean('is_test').notNull().default(false),
    /** One call of the OpenAI-compatible API with an API key: never listed in My chats. */
    isApi: boolean('is_api').notNull().default(false),
    /**
     * The last message of the branch the member chose with a branch's arrows; null for the newest
     * message of the session (every send, regeneration and edit makes its answer the active branch).
     */
    activeLeafId: integer('active_leaf_id'),
    lastChatAt: timestamp('last_chat_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sessions_member_idx').on(t.tenantId, t.memberId, t.lastChatAt),
    // Search across my chats (`ILIKE '%term%'`, docs/decisions/0073-chat-search.md).
    index('sessions_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
  ],
);

export const sessionMessages = pgTable(
  'session_messages',
  {
    id: id(),
    tenantId: tenantId(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /**
     * The message this one follows: a member message follows the answer before it (null for the first),
     * an answer its member message. Messages with the same parent are siblings: regenerated answers,
     * edited member messages (docs/decisions/0081-chat-branches.md).
     */
    parentId: integer('parent_id').references((): AnyPgColumn => sessionMessages.id),
    /**
     * The UTF-8 size of the texts above this message on its branch (its parent's `ancestor_bytes`
     * plus its parent's text), written with the message: the branch's size at a leaf (what the next
     * send carries) is one row's value plus its own text, not a walk to the first message.
     */
    ancestorBytes: integer('ancestor_bytes').notNull().default(0),
    speakerType: speakerTypeEnum('speaker_type').notNull(),
    text: text('text').notNull().default(''),
    /** Why a chatbot answer ended early; null when it completed. */
    interrupted: interruptedEnum('interrupted'),
    llmModelId: integer('llm_model_id').references(() => llmModels.id, { onDelete: 'set null' }),
    /** The provider's count once the answer is saved; the send's estimate while it streams (what a sweep charges). */
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    /** The model's reasoning in thinking mode, and how long it took. */
    reasoning: text('reasoning'),
    reasoningMs: integer('reasoning_ms'),
    /** Sources cited by the answer (shared/api/chat `Citation`), in order. */
    citations: jsonb('citations').$type<Citation[]>().notNull().default([]),
    /** The answer's tool calls (shared/api/chat `ToolCall`), in order (issue 24). */
    toolCalls: jsonb('tool_calls').$type<ToolCall[]>().notNull().default([]),
    /** True from the answer's placeholder until its outcome is saved (by its server, or by the sweep once its lease expired). */
    streaming: boolean('streaming').notNull().default(false),
    /**
     * The server process streaming the answer (domains/chat/liveAnswers). Cleared when that process saves
     * the answer; kept on an answer another process swept, naming the process that lost it.
     */
    streamOwner: text('stream_owner'),
    /** Until when the answer's owner holds it; renewed while it streams, after which any process may sweep it. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /**
     * Set on a message recreated from a chat's export (POST /sessions/import/): when, and the files
     * the original carried, by name only (their content is not in an export). Such a message was
     * never sent to a model and charged nothing (docs/decisions/0079-chat-export-import.md).
     */
    imported: jsonb('imported').$type<ImportedMark>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('session_messages_session_idx').on(t.sessionId, t.id),
    // Siblings of a message (its parent's children) and a branch's descendants.
    index('session_messages_parent_idx').on(t.sessionId, t.parentId, t.id),
    // Search across my chats (docs/decisions/0073-chat-search.md): words of 3 characters or more by
    // trigrams; 2-character words (Korean ones are common) by the bigrams of migration 0039's function.
    // Finished messages only: a streaming answer's text is rewritten at every flush, and indexing each
    // version was most of the write (migration 0045).
    index('session_messages_text_trgm_idx')
      .using('gin', t.text.op('gin_trgm_ops'))
      .where(sql`not ${t.streaming}`),
    index('session_messages_text_bigram_idx')
      .using('gin', sql`chat_search_bigrams(${t.text})`)
      .where(sql`not ${t.streaming}`),
    // Few rows are ever streaming, so the sweep for answers whose lease expired reads only these.
    index('session_messages_lease_idx')
      .on(t.leaseExpiresAt)
      .where(sql`${t.streaming}`),
  ],
);

export const sessionMessageFiles = pgTable(
  'session_message_files',
  {
    tenantId: tenantId(),
    messageId: integer('message_id')
      .notNull()
      .references(() => sessionMessages.id, { onDelete: 'cascade' }),
    fileId: fileId(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] })],
);

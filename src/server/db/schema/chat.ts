/** Chat sessions and their messages. */
import { sql } from 'drizzle-orm';
import type { Citation } from '../../../shared/api/chat';
import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { llmModels, chatbots } from './chatbots';
import { id, createdAt } from './columns';
import { files } from './files';
import { members } from './members';
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
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
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
    lastChatAt: timestamp('last_chat_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_member_idx').on(t.tenantId, t.memberId, t.lastChatAt)],
);

export const sessionMessages = pgTable(
  'session_messages',
  {
    id: id(),
    tenantId: tenantId(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
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
    /** True from the answer's placeholder until its outcome is saved (by its server, or by the sweep once its lease expired). */
    streaming: boolean('streaming').notNull().default(false),
    /**
     * The server process streaming the answer (domains/chat/liveAnswers). Cleared when that process saves
     * the answer; kept on an answer another process swept, naming the process that lost it.
     */
    streamOwner: text('stream_owner'),
    /** Until when the answer's owner holds it; renewed while it streams, after which any process may sweep it. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('session_messages_session_idx').on(t.sessionId, t.id),
    // Few rows are ever streaming, so the sweep for answers whose lease expired reads only these.
    index('session_messages_lease_idx').on(t.leaseExpiresAt).where(sql`${t.streaming}`),
  ],
);

export const sessionMessageFiles = pgTable(
  'session_message_files',
  {
    tenantId: tenantId(),
    messageId: integer('message_id')
      .notNull()
      .references(() => sessionMessages.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] })],
);

/** Uploaded files, their parsed text and retrieval passages. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, customType, index, integer, real, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sessions } from './chat';
import { chatbots } from './chatbots';
import { id, createdAt } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

export const files = pgTable('files', {
  id: id(),
  tenantId: tenantId(),
  memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  storageKey: text('storage_key').notNull(),
  accessLevel: text('access_level', { enum: ['public', 'private'] })
    .notNull()
    .default('public'),
  shouldExpire: boolean('should_expire').notNull().default(true),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  parsedPercentage: integer('parsed_percentage'),
  /** Where text extraction stands: images are `parsed` at once (they go to the model as pictures). */
  parseStatus: text('parse_status', { enum: ['parsing', 'parsed', 'failed'] })
    .notNull()
    .default('parsing'),
  chatbotId: integer('chatbot_id').references(() => chatbots.id, { onDelete: 'set null' }),
  sessionId: integer('session_id').references((): AnyPgColumn => sessions.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** The file a row is part of: it goes when the file does. */
export function fileId() {
  return integer('file_id')
    .notNull()
    .references(() => files.id, { onDelete: 'cascade' });
}

/**
 * Text parsed out of a file, in reading order: one row per page (PDF, slides), sheet (spreadsheets)
 * or section (other documents). Written by the file parsing job; read to give a file's content to
 * the model and to index it for retrieval.
 */
export const fileSections = pgTable(
  'file_sections',
  {
    id: id(),
    tenantId: tenantId(),
    fileId: fileId(),
    ordinal: integer('ordinal').notNull(),
    /** 1-based page or slide number, when the format has pages. */
    page: integer('page'),
    /** Sheet name or section heading, when the format has one. */
    heading: text('heading'),
    text: text('text').notNull(),
  },
  (t) => [index('file_sections_file_idx').on(t.fileId, t.ordinal)],
);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const varbit = customType<{ data: string }>({ dataType: () => 'bit varying' });

/**
 * Passages of a file's parsed text (file_sections) for retrieval: a few hundred characters each,
 * with the page or section they came from. Rebuilt whole by `indexFile` (server/retrieval).
 * `embedding` (unit length, so a dot product is the cosine) is set only when EMBEDDING_* is configured.
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    id: id(),
    tenantId: tenantId(),
    fileId: fileId(),
    ordinal: integer('ordinal').notNull(),
    page: integer('page'),
    section: text('section'),
    text: text('text').notNull(),
    /**
     * Full-text search vector of section and text, kept by PostgreSQL itself: English stems, and
     * Korean words without their particles (korean_stems, migration 0050, as queryTerms strips them).
     */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('english', korean_stems(coalesce(section, '') || ' ' || text))`),
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    /**
     * One bit per dimension of `embedding` (1 where positive), kept by PostgreSQL itself (function of
     * migration 0049): the Hamming distance of two signatures is a cheap first pass over a question's
     * candidates before the exact dot product of the nearest few (docs/decisions/0087-retrieval-at-scale.md).
     */
    embeddingSigns: varbit('embedding_signs').generatedAlwaysAs(sql`embedding_signs(embedding)`),
  },
  (t) => [
    index('document_chunks_file_idx').on(t.fileId, t.ordinal),
    // The text prefilter: full-text matches, and the passages containing a question word (its
    // 2-character pieces, function of migration 0039, then strpos on the few the index returns).
    // No pending list (fastupdate): passages are written by the background indexing, searched while a member waits.
    index('document_chunks_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
    index('document_chunks_bigram_idx')
      .using('gin', sql`chat_search_bigrams(coalesce(${t.section}, '') || ' ' || ${t.text})`)
      .with({ fastupdate: false }),
  ],
);

/** Errors clients report. */
import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

export const errorLogs = pgTable('error_logs', {
  id: id(),
  tenantId: tenantId(),
  memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
  message: text('message').notNull(),
  source: text('source').notNull(),
  stack: text('stack'),
  url: text('url').notNull(),
  userAgent: text('user_agent').notNull(),
  clientTimestamp: text('client_timestamp').notNull(),
  errorId: text('error_id').notNull(),
  attachments: jsonb('attachments').$type<{ title: string; text: string }[]>().notNull().default([]),
  createdAt: createdAt(),
});

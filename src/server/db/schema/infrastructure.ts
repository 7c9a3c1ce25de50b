/** Tables behind the server's infrastructure: the mail outbox and the shared rate-limit counters. */
import { sql } from 'drizzle-orm';
import type { MailTemplateName } from '../../mail/templates';
import { index, integer, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, createdAt, languageEnum } from './columns';
import { tenantId } from './tenants';

export const mailStatusEnum = pgEnum('mail_status', ['pending', 'sending', 'sent', 'failed']);

/**
 * Fixed-window request counters shared by every server process (shared/rateLimit.ts), keyed by
 * what is limited and who asks (e.g. `sign-in:203.0.113.9`). Not per tenant: a client is limited
 * across all of them. Expired rows are reset in place or swept.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  /** Failure keys only (sign-in delays): the last failure, on the server clock; null for request counts. */
  lastAt: timestamp('last_at', { withTimezone: true }),
});

/**
 * Every mail the server sends (docs/decisions/0004-mail-outbox.md): rendered and written by the
 * transaction that decides it, then sent once by the mail sender (mail/outbox.ts) of any process.
 * `pending` waits for `next_attempt_at`; `sending` is claimed until `next_attempt_at` (the lease),
 * after which another sender may take it again; `sent` and `failed` are final.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    tenantId: tenantId(),
    template: text('template').$type<MailTemplateName>().notNull(),
    recipient: text('recipient').notNull(),
    language: languageEnum('language').notNull(),
    subject: text('subject').notNull(),
    /** Emptied once sent over SMTP: codes, links and temporary passwords are not kept longer than needed. */
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** The Message-ID header, fixed when the row is written: a mail sent twice (a crash after SMTP accepted it) carries the same one. */
    messageId: text('message_id').notNull().unique(),
    status: mailStatusEnum('status').notNull().default('pending'),
    /** Claims so far; also the fence of a claim (a sender marks only the row it claimed). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('mail_outbox_created_idx').on(t.createdAt),
  ],
);

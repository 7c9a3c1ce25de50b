/**
 * The mail outbox (docs/decisions/0004-mail-outbox.md): every mail is rendered and written as a
 * `mail_outbox` row by the transaction that decides it (`queue`), so the mail exists exactly when
 * what it is about exists, with its content (a code, a link, a temporary password) fixed once. The
 * sender of every server process claims due rows (FOR UPDATE SKIP LOCKED), sends each and marks it
 * sent; a claim lapses after a lease, so the rows of a process that died are sent by another.
 * Failures are retried with backoff, then the row is `failed`. The one way a mail goes twice: the
 * SMTP server took it and the process died before marking it; then the same row (same content,
 * same Message-ID) goes again.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { SupportedLanguage } from '../../shared/domain/language';
import type { ServerConfig } from '../config';
import type { Queryable } from '../db/client';
import type { AppDeps } from '../deps';
import { mailOutbox } from '../db/schema';
import { renderMail } from './render';
import type { MailTemplateData, MailTemplateName } from './templates';
import { type OutboxMail, MailDeliveryError } from './transport';

/** One mail to write: a template, its data and who gets it in which language. */
export type OutgoingMail = { [N in MailTemplateName]: { template: N; to: string; language: SupportedLanguage; data: MailTemplateData[N] } }[MailTemplateName];

/**
 * What became of a mail delivered at once: `sent`; `failed` for good (its row is failed and never
 * sent); `later` (not sent yet: the sender sends it, retrying as needed).
 */
export type DeliveryOutcome = 'sent' | 'failed' | 'later';

export interface MailOutbox {
  /**
   * Writes the mails as outbox rows on `q`, the transaction that decides them (one statement), and
   * returns their ids. With `deliverNow` the caller sends them itself right after its commit (the
   * method of that name); the sender leaves them alone for a lease, and takes them only if that
   * caller never does (it died).
   */
  queue(q: Queryable, tenantId: number, mails: OutgoingMail[], options?: { deliverNow?: boolean }): Promise<number[]>;
  /**
   * Sends rows this caller queued with `deliverNow`, a few at a time, and says what became of each.
   * `retry: false` (a request that answers 424 when its mail fails): any failure fails the row for
   * good, so the mail never arrives after the caller said it was not sent. `retry: true`: only a
   * permanent refusal fails it; otherwise the row is left to the sender's retries, and so are the
   * rows not tried yet (a server that is down is not waited on for each).
   */
  deliverNow(ids: number[], options: { retry: boolean }): Promise<DeliveryOutcome[]>;
  /** One round of the sender: claims due rows, sends them; how many it claimed. */
  sendDue(): Promise<number>;
  /** Runs the sender until `close`: a round, and when nothing was due a pause of `pollSeconds`. */
  start(): void;
  /** Stops the sender after the sends under way, and closes the transport. */
  close(): Promise<void>;
}

interface MailOutboxSettings {
  /** Sends per row at most; then it is failed. */
  maxAttempts: number;
  /** The first retry's delay; each later one doubles, up to an hour. */
  retrySeconds: number;
  /** How long a claimed row is left to its claimer (longer than one send may take). */
  leaseSeconds: number;
  /** How often an idle sender looks for due rows. */
  pollSeconds: number;
  /** The sender's address (MAIL_FROM): its domain names the Message-IDs. */
  from: string;
}

const outboxSettings = (config: ServerConfig): MailOutboxSettings => ({
  maxAttempts: config.MAIL_MAX_ATTEMPTS,
  retrySeconds: config.MAIL_RETRY_SECONDS,
  leaseSeconds: config.MAIL_LEASE_SECONDS,
  pollSeconds: config.JOB_POLL_INTERVAL_SECONDS,
  from: config.MAIL_FROM,
});

/** Sends at once per sender round and per `deliverNow` step: SMTP round trips dominate. */
const CONCURRENCY = 8;
const MAX_RETRY_DELAY_SECONDS = 3600;
const recipient = z.email().max(254);
const columns = {
  id: mailOutbox.id,
  template: mailOutbox.template,
  recipient: mailOutbox.recipient,
  language: mailOutbox.language,
  subject: mailOutbox.subject,
  text: mailOutbox.text,
  html: mailOutbox.html,
  messageId: mailOutbox.messageId,
  attempts: mailOutbox.attempts,
};
type ClaimedMail = OutboxMail & { attempts: number };

const secondsFromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

function messageIdDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}

/** Sends through `mailTransport`, with the MAIL_* settings (and JOB_POLL_INTERVAL_SECONDS for an idle sender). */
export function createMailOutbox({ db, mailTransport: transport, config, log }: Pick<AppDeps, 'db' | 'mailTransport' | 'config' | 'log'>): MailOutbox {
  const settings = outboxSettings(config);
  const domain = messageIdDomain(settings.from);
  const claim = { status: 'sending' as const, attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: secondsFromNow(settings.leaseSeconds) };

  /** Marks the row this claim holds; a claim that lapsed and was taken over marks nothing. */
  async function settle(mail: ClaimedMail, values: PgUpdateSetSource<typeof mailOutbox>): Promise<void> {
    const settled = await db
      .update(mailOutbox)
      .set(values)
      .where(and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, mail.attempts)))
      .returning({ id: mailOutbox.id });
    if (settled.length === 0) log.warn({ mailId: mail.id }, 'mail claim lapsed before it was marked (another sender took the row)');
  }

  async function send(mail: ClaimedMail, retry: boolean): Promise<DeliveryOutcome> {
    if (mail.attempts > settings.maxAttempts) {
      // Claimed that often without an outcome: every sender holding it died.
      const why = `no outcome after ${settings.maxAttempts} attempts (the sending process stopped each time)`;
      log.error({ mailId: mail.id, template: mail.template, to: mail.recipient }, `mail failed for good: ${why}`);
      await settle(mail, { status: 'failed', lastError: why });
      return 'failed';
    }
    try {
      await transport.send(mail);
    } catch (error) {
      const why = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const final = !retry || (error instanceof MailDeliveryError && error.permanent) || mail.attempts >= settings.maxAttempts;
      if (final) {
        log.error({ err: error, mailId: mail.id, template: mail.template, to: mail.recipient, attempts: mail.attempts }, 'mail failed for good');
        await settle(mail, { status: 'failed', lastError: why });
        return 'failed';
      }
      const delay = Math.min(settings.retrySeconds * 2 ** (mail.attempts - 1), MAX_RETRY_DELAY_SECONDS);
      log.warn(
        { err: error, mailId: mail.id, template: mail.template, to: mail.recipient, attempts: mail.attempts, retryInSeconds: delay },
        'mail not sent; it will be retried',
      );
      await settle(mail, { status: 'pending', lastError: why, nextAttemptAt: secondsFromNow(delay) });
      return 'later';
    }
    // Sent over SMTP, the content (codes, links, temporary passwords) has no use left; without SMTP the row is what the operator reads.
    await settle(mail, { status: 'sent', sentAt: sql`now()`, lastError: null, ...(transport.kind === 'smtp' ? { text: '', html: '' } : {}) });
    return 'sent';
  }

  async function sendDue(): Promise<number> {
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      // Written out as in the partial index `mail_outbox_due_idx`, so the planner can use it (bound parameters would not match it).
      .where(and(sql`${mailOutbox.status} in ('pending', 'sending')`, lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(CONCURRENCY)
      .for('update', { skipLocked: true });
    const claimed = await db.update(mailOutbox).set(claim).where(inArray(mailOutbox.id, due)).returning(columns);
    await Promise.all(claimed.map((mail) => send(mail, true)));
    return claimed.length;
  }

  let running: Promise<void> | null = null;
  let stopping = false;
  let wake = () => {};

  return {
    async queue(q, tenantId, mails, { deliverNow = false } = {}) {
      if (mails.length === 0) return [];
      for (const mail of mails) if (!recipient.safeParse(mail.to).success) throw new TypeError(`not a single valid email address: ${JSON.stringify(mail.to)}`);
      const rows = await q
        .insert(mailOutbox)
        .values(
          mails.map((mail) => ({
            tenantId,
            template: mail.template,
            recipient: mail.to,
            language: mail.language,
            ...renderMail(mail.template, mail.language, mail.data as never),
            messageId: `<${randomUUID()}@${domain}>`,
            ...(deliverNow ? { nextAttemptAt: secondsFromNow(settings.leaseSeconds) } : {}),
          })),
        )
        .returning({ id: mailOutbox.id });
      return rows.map((row) => row.id);
    },

    async deliverNow(ids, { retry }) {
      const outcomes = new Map<number, DeliveryOutcome>();
      for (let start = 0; start < ids.length; start += CONCURRENCY) {
        const claimed = await db
          .update(mailOutbox)
          .set(claim)
          .where(and(inArray(mailOutbox.id, ids.slice(start, start + CONCURRENCY)), eq(mailOutbox.status, 'pending')))
          .returning(columns);
        const results = await Promise.all(claimed.map((mail) => send(mail, retry)));
        claimed.forEach((mail, i) => outcomes.set(mail.id, results[i]!));
        if (results.includes('later')) break;
      }
      // A row this caller could not claim was taken by the sender (its reservation ran out): it is on its way.
      return ids.map((id) => outcomes.get(id) ?? 'later');
    },

    sendDue,

    start() {
      if (running) return;
      running = (async () => {
        while (!stopping) {
          let claimed = 0;
          try {
            claimed = await sendDue();
          } catch (error) {
            log.error({ err: error }, 'mail sender round failed');
          }
          if (claimed > 0 || stopping) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, settings.pollSeconds * 1000);
            timer.unref();
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      })();
    },

    async close() {
      stopping = true;
      wake();
      await running;
      transport.close();
    },
  };
}

/** An outbox row as the admin CLI lists it. */
export interface ListedMail {
  id: number;
  createdAt: Date;
  template: MailTemplateName;
  to: string;
  language: SupportedLanguage;
  status: (typeof mailOutbox.$inferSelect)['status'];
  subject: string;
  text: string;
  lastError: string | null;
}

/** The outbox, newest first (the admin CLI's list-outbox). */
export function listOutbox(db: Queryable, { limit = 20 }: { limit?: number } = {}): Promise<ListedMail[]> {
  return db
    .select({
      id: mailOutbox.id,
      createdAt: mailOutbox.createdAt,
      template: mailOutbox.template,
      to: mailOutbox.recipient,
      language: mailOutbox.language,
      status: mailOutbox.status,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      lastError: mailOutbox.lastError,
    })
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}

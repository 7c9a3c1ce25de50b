/**
 * `mail.send(template, {to, language, data})`: renders the template in the recipient's language and
 * sends it over SMTP (SMTP_URL), or, without SMTP, keeps it in the outbox directory and writes it to
 * the server log so the operator can pass on a code by hand.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { SupportedLanguage } from '../../shared/domain/language';
import { renderMail } from './render';
import type { MailTemplateData, MailTemplateName } from './templates';

export interface MailRequest<N extends MailTemplateName> {
  to: string;
  language: SupportedLanguage;
  data: MailTemplateData[N];
}

export interface MailDelivery {
  via: 'smtp' | 'outbox';
  /** SMTP Message-ID, or the outbox entry's id. */
  id: string;
}

export interface MailService {
  send<N extends MailTemplateName>(template: N, request: MailRequest<N>): Promise<MailDelivery>;
  close(): void;
}

/** Where the server log goes; Fastify's (pino) logger fits. */
export interface MailLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface MailSettings {
  /** smtp:// or smtps:// URL with credentials; undefined: the outbox. */
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: MailLog;
}

/** SMTP refused or could not be reached; callers answer 424 where the spec says so (reset, verification code). */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}

/** A mail kept instead of sent, as stored in one JSON file of the outbox directory. */
export interface OutboxEntry {
  id: string;
  createdAt: string;
  template: MailTemplateName;
  to: string;
  language: SupportedLanguage;
  subject: string;
  text: string;
  html: string;
}

const recipient = z.email().max(254);

export function createMailService({ smtpUrl, from, outboxDir, log }: MailSettings): MailService {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;

  return {
    async send(template, { to, language, data }) {
      if (!recipient.safeParse(to).success) throw new TypeError(`not a single valid email address: ${JSON.stringify(to)}`);
      const mail = renderMail(template, language, data);
      if (!transport) {
        const entry = await writeOutboxEntry(outboxDir, { template, to, language, ...mail });
        // Warn level: the default LOG_LEVEL shows it, and an operator without SMTP needs the code in it.
        log.warn({ outboxId: entry.id, template, to, subject: mail.subject, text: mail.text }, 'mail kept in the outbox (no SMTP_URL)');
        return { via: 'outbox', id: entry.id };
      }
      try {
        const info = await transport.sendMail({ from, to, subject: mail.subject, text: mail.text, html: mail.html, headers: { 'Content-Language': language } });
        log.info({ template, to, messageId: info.messageId }, 'mail sent');
        return { via: 'smtp', id: info.messageId };
      } catch (error) {
        throw new MailDeliveryError(`mail "${template}" to ${to} could not be sent: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    },
    close() {
      transport?.close();
    },
  };
}

/** Orders this process's mails of one millisecond; the random part keeps two processes apart. */
let outboxSequence = 0;

/**
 * Writes one outbox entry (a JSON file named by time, so sorting names sorts by time); also the
 * SMS outbox (server/sms). Returns the entry with its id and creation time.
 */
export async function writeOutboxEntry<T extends object>(outboxDir: string, fields: T): Promise<T & { id: string; createdAt: string }> {
  const createdAt = new Date();
  outboxSequence = (outboxSequence + 1) % 1_000_000;
  // Sortable by name = by time.
  const id = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${String(outboxSequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
  const entry = { id, createdAt: createdAt.toISOString(), ...fields };
  await mkdir(outboxDir, { recursive: true });
  // Written aside, then renamed: a reader never sees half a file.
  const partial = join(outboxDir, `.${id}.partial`);
  await writeFile(partial, JSON.stringify(entry, null, 2));
  await rename(partial, join(outboxDir, `${id}.json`));
  return entry;
}

/** The outbox, newest first (for the admin CLI). An outbox that was never written is empty. */
export async function listOutbox(outboxDir: string, { limit = 50 }: { limit?: number } = {}): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = await readdir(outboxDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const newest = names
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(newest.map(async (name) => JSON.parse(await readFile(join(outboxDir, name), 'utf8')) as OutboxEntry));
}

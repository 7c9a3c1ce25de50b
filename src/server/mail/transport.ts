/**
 * How one outbox row leaves the server: over SMTP (SMTP_URL), or, without SMTP, into the server log
 * at warn, where an operator reads a code or a link to pass on by hand.
 */
import nodemailer from 'nodemailer';
import type { SupportedLanguage } from '../../shared/domain/language';
import type { AppDeps } from '../deps';
import type { MailTemplateName } from './templates';

/** A rendered mail as the outbox keeps it. */
export interface OutboxMail {
  id: number;
  template: MailTemplateName;
  recipient: string;
  language: SupportedLanguage;
  subject: string;
  text: string;
  html: string;
  messageId: string;
}

/**
 * The SMTP server did not take the mail. `permanent`: it refused this message or recipient for good
 * (a 5xx answer to RCPT TO or DATA), so sending it again cannot help; anything else (unreachable,
 * a timeout, a 4xx, refused credentials) may pass later.
 */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface MailTransport {
  readonly kind: 'smtp' | 'log';
  send(mail: OutboxMail): Promise<void>;
  close(): void;
}

/** Connections to the SMTP server per process: as many as the outbox sends at once. */
const MAX_CONNECTIONS = 8;

/** nodemailer's codes for a refusal of the envelope or the message (as opposed to the connection or the login). */
const MESSAGE_REFUSALS = new Set(['EENVELOPE', 'EMESSAGE']);

/**
 * SMTP_URL (smtp:// or smtps:// with credentials) from MAIL_FROM, else the log. One send may take
 * half of MAIL_LEASE_SECONDS: the sender's claim on a row must outlast it.
 */
export function createMailTransport({ config, log }: Pick<AppDeps, 'config' | 'log'>): MailTransport {
  const { SMTP_URL: smtpUrl, MAIL_FROM: from } = config;
  const timeoutMs = (config.MAIL_LEASE_SECONDS * 1000) / 2;
  if (!smtpUrl) {
    return {
      kind: 'log',
      async send(mail) {
        // Warn level: the default LOG_LEVEL shows it, and an operator without SMTP needs the code in it.
        log.warn(
          { mailId: mail.id, template: mail.template, to: mail.recipient, subject: mail.subject, text: mail.text },
          'mail kept in the outbox (no SMTP_URL)',
        );
      },
      close() {},
    };
  }
  // A pool of connections kept open (a bulk upload sends thousands); each step's timeout is a share
  // of the whole, and each send is aborted at the whole (a server trickling its replies resets no
  // socket timeout), so a send always ends before the sender's claim on its row could lapse.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: MAX_CONNECTIONS,
    connectionTimeout: timeoutMs / 4,
    greetingTimeout: timeoutMs / 4,
    socketTimeout: timeoutMs / 2,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transport.sendMail({
          from,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          // Which mail it is, for the operator's relay and logs (and the e2e tests' mailbox).
          headers: { 'Content-Language': mail.language, 'X-Mail-Template': mail.template },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const { code, responseCode } = error as { code?: string; responseCode?: number };
        const permanent = MESSAGE_REFUSALS.has(code ?? '') && (responseCode ?? 0) >= 500;
        throw new MailDeliveryError(
          `mail ${mail.id} ("${mail.template}") to ${mail.recipient} was not sent: ${error instanceof Error ? error.message : String(error)}`,
          permanent,
          { cause: error },
        );
      }
      log.info({ mailId: mail.id, template: mail.template, to: mail.recipient, messageId: mail.messageId }, 'mail sent');
    },
    close() {
      transport.close();
    },
  };
}

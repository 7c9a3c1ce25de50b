/**
 * The mail outbox (src/server/mail/outbox.ts) on the real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL) and a real SMTP server on loopback: what arrives, sent once, retried, failed,
 * and never sent by two senders at once. The app's own sender is off here (JOB_CONCURRENCY=0): each
 * test runs the senders it describes.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerConfig, testConfig } from '../../src/server/config';
import type { Database, DatabaseHandle } from '../../src/server/db/client';
import { openPostgres } from '../../src/server/db/client';
import { mailOutbox } from '../../src/server/db/schema';
import type { ServerLog } from '../../src/server/deps';
import { type MailOutbox, type OutgoingMail, createMailOutbox, listOutbox } from '../../src/server/mail/outbox';
import { createMailTransport } from '../../src/server/mail/transport';
import { LANGUAGES } from '../../src/shared/domain/language';
import { freePort } from '../fixtures/ports';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { type TestServer, startTestServer } from '../fixtures/testServer';
import { tenantIdOf, waitFor } from './helpers/memberTransfer';

const FROM = 'Chatbot Platform <no-reply@example.test>';
const mailConfig = (overrides: Partial<ServerConfig> = {}) =>
  testConfig({ MAIL_FROM: FROM, MAIL_MAX_ATTEMPTS: 3, MAIL_RETRY_SECONDS: 0.1, MAIL_LEASE_SECONDS: 2, JOB_POLL_INTERVAL_SECONDS: 0.5, ...overrides });
const CONFIG = mailConfig();

function recordingLog() {
  const lines: { level: string; details: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: string) =>
    (details: object, message: string): void => {
      lines.push({ level, details: details as Record<string, unknown>, message });
    };
  const log: ServerLog = { info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

let server: TestServer;
let tenantId: number;
let sink: SmtpSink;
const opened: MailOutbox[] = [];

/** An outbox on `db` sending to `smtpUrl` (undefined: the log), closed after the file. */
function outboxFor(db: Database, smtpUrl: string | undefined, log: ServerLog = recordingLog().log, timeoutMs = 5000): MailOutbox {
  // A transport gives one send half of its MAIL_LEASE_SECONDS: this one's send may take `timeoutMs`,
  // whatever the outbox's own lease (a sender frozen past it is what some tests are about).
  const mailTransport = createMailTransport({ config: mailConfig({ SMTP_URL: smtpUrl, MAIL_LEASE_SECONDS: (timeoutMs * 2) / 1000 }), log });
  const outbox = createMailOutbox({ db, mailTransport, config: CONFIG, log });
  opened.push(outbox);
  return outbox;
}

const code = (to: string, value = '482913'): OutgoingMail => ({
  template: 'verificationCode',
  to,
  language: 'en',
  data: { code: value, expiresInMinutes: 10 },
});

async function rowOf(id: number) {
  const [row] = await server.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row!;
}

/** Sender rounds until nothing is due. */
async function drain(outbox: MailOutbox): Promise<void> {
  while ((await outbox.sendDue()) > 0);
}

const arrivedTo = (address: string) => sink.received.filter((mail) => mail.envelopeTo.includes(address));

beforeAll(async () => {
  sink = await startSmtpSink({ refuse: (address) => (address.startsWith('gone') ? 550 : address.startsWith('busy') ? 451 : undefined) });
  server = await startTestServer({ config: { JOB_CONCURRENCY: 0 } });
  tenantId = await tenantIdOf(server.db, 'demo');
});
afterAll(async () => {
  await Promise.all(opened.map((outbox) => outbox.close()));
  await server?.close();
  await sink?.close();
});

describe('mail over SMTP', () => {
  it('delivers a verification code with subject, recipient, text, HTML and the row’s Message-ID; the sent row keeps no text', async () => {
    const outbox = outboxFor(server.db, sink.url);
    const [id] = await outbox.queue(server.db, tenantId, [
      { template: 'verificationCode', to: 'new.member@example.test', language: 'ko', data: { code: '482913', expiresInMinutes: 10 } },
    ]);
    await drain(outbox);

    const [arrived] = arrivedTo('new.member@example.test');
    expect(arrived!.user).toBe('mailer');
    expect(arrived!.parsed.subject).toBe('이메일 인증 코드');
    expect(arrived!.parsed.from?.text).toContain('no-reply@example.test');
    expect(arrived!.parsed.headers.get('content-language')).toBe('ko');
    expect(arrived!.parsed.headers.get('x-mail-template')).toBe('verificationCode');
    expect(arrived!.parsed.text).toContain('482913');
    expect(arrived!.parsed.text).toContain('10분');
    expect(arrived!.parsed.html).toContain('<html lang="ko">');
    const row = await rowOf(id!);
    expect(arrived!.parsed.messageId).toBe(row.messageId);
    expect(row.messageId).toMatch(/^<[\w-]+@example\.test>$/);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null, text: '', html: '', subject: '이메일 인증 코드' });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('sends a row once: later rounds find nothing to send', async () => {
    const outbox = outboxFor(server.db, sink.url);
    const [id] = await outbox.queue(server.db, tenantId, [code('once@example.test')]);
    await drain(outbox);
    await drain(outbox);
    await drain(outboxFor(server.db, sink.url));
    expect(arrivedTo('once@example.test')).toHaveLength(1);
    expect((await rowOf(id!)).attempts).toBe(1);
  });

  it('speaks each of the five languages', async () => {
    const outbox = outboxFor(server.db, sink.url);
    await outbox.queue(
      server.db,
      tenantId,
      LANGUAGES.map((language) => ({
        template: 'invitation' as const,
        to: `invitee-${language}@example.test`,
        language,
        data: { tenantName: 'Acme', acceptUrl: 'https://acme.example.test/invitations/abc', temporaryPassword: 'Tmp-7731' },
      })),
    );
    await drain(outbox);
    const subjects: Record<string, string> = {};
    for (const language of LANGUAGES) {
      const [arrived] = arrivedTo(`invitee-${language}@example.test`);
      expect(arrived!.parsed.html).toContain(`lang="${language}"`);
      expect(arrived!.parsed.text).toContain('Tmp-7731');
      expect(arrived!.parsed.text).toContain('https://acme.example.test/invitations/abc');
      subjects[language] = arrived!.parsed.subject ?? '';
    }
    expect(subjects).toEqual({
      ko: 'Acme에 초대되었습니다',
      en: 'You are invited to Acme',
      zh: '您已受邀加入 Acme',
      ja: 'Acmeへの招待',
      es: 'Te han invitado a Acme',
    });
  });

  it('escapes what users wrote in the HTML part and keeps it verbatim in the text part', async () => {
    const outbox = outboxFor(server.db, sink.url);
    const reason = '<script>alert("x")</script> & <b>no</b>';
    await outbox.queue(server.db, tenantId, [
      {
        template: 'memberRequestRejected',
        to: 'requester@example.test',
        language: 'en',
        data: { name: '<img src=x onerror=alert(1)>', tenantName: 'Acme\r\nBcc: victim@example.test', requestType: 'registration', reason },
      },
    ]);
    await drain(outbox);
    const [arrived] = arrivedTo('requester@example.test');
    expect(arrived!.envelopeTo).toEqual(['requester@example.test']);
    expect(arrived!.parsed.bcc).toBeUndefined();
    expect(arrived!.parsed.subject).toBe('Your registration request at Acme Bcc: victim@example.test was rejected');
    expect(arrived!.parsed.html).not.toContain('<script>');
    expect(arrived!.parsed.html).not.toContain('<img');
    expect(arrived!.parsed.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;no&lt;/b&gt;');
    expect(arrived!.parsed.text).toContain(`> ${reason}`);
  });

  it('refuses a recipient that is not one address and writes nothing', async () => {
    const outbox = outboxFor(server.db, sink.url);
    const before = (await listOutbox(server.db, { limit: 1000 })).length;
    for (const to of ['a@example.test, b@example.test', 'a@example.test\r\nBcc: b@example.test', 'not-an-address']) {
      await expect(outbox.queue(server.db, tenantId, [code('fine@example.test'), code(to)])).rejects.toThrow(TypeError);
    }
    expect((await listOutbox(server.db, { limit: 1000 })).length).toBe(before);
  });
});

describe('failures and retries', () => {
  it('retries a mail the server defers (451) with backoff, then fails it after the last attempt, logged with why', async () => {
    const { log, lines } = recordingLog();
    const outbox = outboxFor(server.db, sink.url, log);
    const [id] = await outbox.queue(server.db, tenantId, [code('busy@example.test')]);
    await outbox.sendDue();
    const deferred = await rowOf(id!);
    expect(deferred).toMatchObject({ status: 'pending', attempts: 1 });
    expect(deferred.lastError).toMatch(/451/);
    expect(deferred.nextAttemptAt.getTime()).toBeGreaterThan(deferred.createdAt.getTime());
    const failed = await waitFor(async () => {
      await outbox.sendDue();
      const row = await rowOf(id!);
      return row.status === 'failed' ? row : undefined;
    }, 'the deferred mail to fail for good');
    expect(failed.attempts).toBe(CONFIG.MAIL_MAX_ATTEMPTS);
    expect(failed.lastError).toMatch(/451/);
    expect(arrivedTo('busy@example.test')).toEqual([]);
    expect(lines.filter((line) => line.details.mailId === id).map((line) => [line.level, line.message])).toEqual([
      ['warn', 'mail not sent; it will be retried'],
      ['warn', 'mail not sent; it will be retried'],
      ['error', 'mail failed for good'],
    ]);
  });

  it('fails a mail the server refuses for good (550) at once', async () => {
    const outbox = outboxFor(server.db, sink.url);
    const [id] = await outbox.queue(server.db, tenantId, [code('gone@example.test')]);
    await outbox.sendDue();
    const row = await rowOf(id!);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toMatch(/550/);
  });

  it('sends a mail whose SMTP server was unreachable once it is back, with the same content and Message-ID', async () => {
    const port = await freePort();
    const outbox = outboxFor(server.db, `smtp://mailer:secret@127.0.0.1:${port}`);
    const [id] = await outbox.queue(server.db, tenantId, [code('patient@example.test', '777000')]);
    await outbox.sendDue();
    expect((await rowOf(id!)).status).toBe('pending');
    const later = await startSmtpSink({ port });
    try {
      await waitFor(async () => {
        await outbox.sendDue();
        return later.received.length > 0 ? true : undefined;
      }, 'the retry to reach the SMTP server');
      const row = await rowOf(id!);
      expect(row).toMatchObject({ status: 'sent', attempts: 2 });
      expect(later.received[0]!.parsed.messageId).toBe(row.messageId);
      expect(later.received[0]!.parsed.text).toContain('777000');
    } finally {
      await later.close();
    }
  });

  it('gives up on a server that takes the mail and never answers, within the send timeout, and sends the same row again', async () => {
    // 4 s: the connection and greeting get 1 s each, so a loaded machine's slow greeting is not
    // mistaken for the silence this test is about (the held answer to the mail's data).
    const outbox = outboxFor(server.db, sink.url, recordingLog().log, 4000);
    const [id] = await outbox.queue(server.db, tenantId, [code('silent@example.test', '303030')]);
    sink.holdFrom = sink.received.length + 1;
    // The send ends within its 4 s although the server holds its answer for as long as the test runs.
    expect(await outbox.sendDue()).toBe(1);
    sink.releaseReplies();
    const aborted = await rowOf(id!);
    expect(aborted).toMatchObject({ status: 'pending', attempts: 1 });
    expect(aborted.lastError).toMatch(/timeout/i);
    await waitFor(async () => {
      await outbox.sendDue();
      return (await rowOf(id!)).status === 'sent' ? true : undefined;
    }, 'the retry');
    const [first, second] = arrivedTo('silent@example.test');
    expect(second!.parsed.messageId).toBe(first!.parsed.messageId);
    expect(second!.parsed.text).toBe(first!.parsed.text);
  });

  it('deliverNow with retry: false fails the row at the first failure, so it never arrives after the caller said 424', async () => {
    const port = await freePort();
    const outbox = outboxFor(server.db, `smtp://mailer:secret@127.0.0.1:${port}`);
    const ids = await outbox.queue(server.db, tenantId, [code('told@example.test')], { deliverNow: true });
    expect(await outbox.deliverNow(ids, { retry: false })).toEqual(['failed']);
    expect(await rowOf(ids[0]!)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});

describe('claims', () => {
  it('leaves a row written for immediate delivery to its writer until the lease passes', async () => {
    const writer = outboxFor(server.db, sink.url);
    const sender = outboxFor(server.db, sink.url);
    const ids = await writer.queue(server.db, tenantId, [code('reserved@example.test')], { deliverNow: true });
    await drain(sender);
    expect(arrivedTo('reserved@example.test')).toEqual([]);
    expect(await writer.deliverNow(ids, { retry: false })).toEqual(['sent']);
    await drain(sender);
    expect(arrivedTo('reserved@example.test')).toHaveLength(1);
  });

  it('two senders never send the same row', async () => {
    // On PostgreSQL the second sender has connections of its own, as another process would.
    const second: DatabaseHandle | undefined = server.databaseUrl ? await openPostgres(server.databaseUrl, 4) : undefined;
    try {
      const ids = await outboxFor(server.db, sink.url).queue(
        server.db,
        tenantId,
        Array.from({ length: 60 }, (_, i) => code(`race-${i}@example.test`)),
      );
      const senders = [outboxFor(server.db, sink.url), outboxFor(second?.db ?? server.db, sink.url), outboxFor(server.db, sink.url)];
      await Promise.all(senders.map(drain));
      const arrived = sink.received.filter((mail) => mail.envelopeTo[0]!.startsWith('race-'));
      expect(arrived).toHaveLength(60);
      expect(new Set(arrived.map((mail) => mail.parsed.messageId)).size).toBe(60);
      const rows = await server.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
      expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    } finally {
      await second?.close();
    }
  });

  it('a row whose sender died while sending goes again after the lease: the same row, never another content', async () => {
    const { log, lines } = recordingLog();
    // A sender frozen past its lease (a killed process never answers at all): its send outlasts the lease.
    const dying = outboxFor(server.db, sink.url, log, 60_000);
    const taking = outboxFor(server.db, sink.url);
    const [id] = await dying.queue(server.db, tenantId, [code('twice@example.test', '909090')]);
    sink.holdFrom = sink.received.length + 1;
    // The first sender's mail reaches the SMTP server, whose answer does not come back.
    const stuck = dying.sendDue();
    await waitFor(async () => (sink.held === 1 ? true : undefined), 'the first send to arrive');
    sink.holdFrom = undefined;
    expect(await taking.sendDue()).toBe(0);
    await waitFor(async () => ((await taking.sendDue()) > 0 ? true : undefined), 'the lease to lapse');
    sink.releaseReplies();
    await stuck;
    const [first, second] = arrivedTo('twice@example.test');
    expect(second!.parsed.messageId).toBe(first!.parsed.messageId);
    expect(second!.parsed.text).toBe(first!.parsed.text);
    expect(await rowOf(id!)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(lines.map((line) => line.message)).toContain('mail claim lapsed before it was marked (another sender took the row)');
  });
});

describe('mail without SMTP', () => {
  it('writes each mail to the log at warn for the operator and keeps its text in the table, newest first', async () => {
    const { log, lines } = recordingLog();
    const outbox = outboxFor(server.db, undefined, log);
    const [first] = await outbox.queue(server.db, tenantId, [
      {
        template: 'passwordReset',
        to: 'member@example.test',
        language: 'ja',
        data: { name: '山田', resetUrl: 'https://demo.example.test/reset?token=t1', expiresInMinutes: 30 },
      },
    ]);
    const [second] = await outbox.queue(server.db, tenantId, [
      { template: 'verificationCode', to: 'other@example.test', language: 'es', data: { code: '555111', expiresInMinutes: 10 } },
    ]);
    await drain(outbox);

    const listed = await listOutbox(server.db, { limit: 2 });
    expect(listed.map((mail) => mail.id)).toEqual([second, first]);
    expect(listed[1]).toMatchObject({ template: 'passwordReset', to: 'member@example.test', language: 'ja', subject: 'パスワードの再設定', status: 'sent' });
    expect(listed[1]!.text).toContain('https://demo.example.test/reset?token=t1');
    expect((await rowOf(first!)).html).toContain('href="https://demo.example.test/reset?token=t1"');
    expect(await listOutbox(server.db, { limit: 1 })).toHaveLength(1);

    const logged = lines.find((line) => line.details.mailId === second);
    expect(logged?.level).toBe('warn');
    expect(logged?.details).toMatchObject({ to: 'other@example.test', subject: 'Tu código de verificación de correo' });
    expect(String(logged?.details.text)).toContain('555111');
  });
});

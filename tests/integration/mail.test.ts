import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/shared/domain/language';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { MailDeliveryError, type MailLog, createMailService, listOutbox } from '../../src/server/mail/service';

const FROM = 'Chatbot Platform <no-reply@example.test>';

function recordingLog() {
  const lines: { level: string; details: Record<string, unknown>; message: string }[] = [];
  const log: MailLog = {
    info: (details, message) => lines.push({ level: 'info', details: details as Record<string, unknown>, message }),
    warn: (details, message) => lines.push({ level: 'warn', details: details as Record<string, unknown>, message }),
  };
  return { log, lines };
}

describe('mail over SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it('delivers a verification code with subject, recipient, text and HTML in the recipient language', async () => {
    const mail = createMailService({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent', log: recordingLog().log });
    const delivery = await mail.send('verificationCode', { to: 'new.member@example.test', language: 'ko', data: { code: '482913', expiresInMinutes: 10 } });
    mail.close();

    expect(delivery.via).toBe('smtp');
    const arrived = sink.received.at(-1)!;
    expect(arrived.user).toBe('mailer');
    expect(arrived.envelopeTo).toEqual(['new.member@example.test']);
    expect(arrived.parsed.subject).toBe('이메일 인증 코드');
    expect(arrived.parsed.from?.text).toContain('no-reply@example.test');
    expect(arrived.parsed.headers.get('content-language')).toBe('ko');
    expect(arrived.parsed.text).toContain('482913');
    expect(arrived.parsed.text).toContain('10분');
    expect(arrived.parsed.html).toContain('<html lang="ko">');
    expect(arrived.parsed.html).toContain('482913');
  });

  it('speaks each of the five languages', async () => {
    const mail = createMailService({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent', log: recordingLog().log });
    const subjects: Record<string, string> = {};
    for (const language of LANGUAGES) {
      await mail.send('invitation', {
        to: `invitee-${language}@example.test`,
        language,
        data: { tenantName: 'Acme', acceptUrl: 'https://acme.example.test/invitations/abc', temporaryPassword: 'Tmp-7731' },
      });
      const arrived = sink.received.at(-1)!;
      expect(arrived.parsed.html).toContain(`lang="${language}"`);
      expect(arrived.parsed.text).toContain('Tmp-7731');
      expect(arrived.parsed.text).toContain('https://acme.example.test/invitations/abc');
      subjects[language] = arrived.parsed.subject ?? '';
    }
    mail.close();
    expect(subjects).toEqual({
      ko: 'Acme에 초대되었습니다',
      en: 'You are invited to Acme',
      zh: '您已受邀加入 Acme',
      ja: 'Acmeへの招待',
      es: 'Te han invitado a Acme',
    });
  });

  it('escapes what users wrote in the HTML part and keeps it verbatim in the text part', async () => {
    const mail = createMailService({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent', log: recordingLog().log });
    const reason = '<script>alert("x")</script> & <b>no</b>';
    await mail.send('memberRequestRejected', {
      to: 'requester@example.test',
      language: 'en',
      data: { name: '<img src=x onerror=alert(1)>', tenantName: 'Acme\r\nBcc: victim@example.test', requestType: 'registration', reason },
    });
    mail.close();
    const arrived = sink.received.at(-1)!;
    expect(arrived.envelopeTo).toEqual(['requester@example.test']);
    expect(arrived.parsed.bcc).toBeUndefined();
    expect(arrived.parsed.subject).toBe('Your registration request at Acme Bcc: victim@example.test was rejected');
    expect(arrived.parsed.html).not.toContain('<script>');
    expect(arrived.parsed.html).not.toContain('<img');
    expect(arrived.parsed.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;no&lt;/b&gt;');
    expect(arrived.parsed.text).toContain(`> ${reason}`);
  });

  it('refuses a recipient that is not one address', async () => {
    const mail = createMailService({ smtpUrl: sink.url, from: FROM, outboxDir: '/nonexistent', log: recordingLog().log });
    const before = sink.received.length;
    for (const to of ['a@example.test, b@example.test', 'a@example.test\r\nBcc: b@example.test', 'not-an-address']) {
      await expect(mail.send('verificationCode', { to, language: 'en', data: { code: '1', expiresInMinutes: 1 } })).rejects.toThrow(TypeError);
    }
    mail.close();
    expect(sink.received.length).toBe(before);
  });

  it('reports a server that refuses the credentials as a delivery error', async () => {
    const wrong = new URL(sink.url);
    wrong.password = 'wrong';
    const mail = createMailService({ smtpUrl: wrong.toString(), from: FROM, outboxDir: '/nonexistent', log: recordingLog().log });
    await expect(mail.send('verificationCode', { to: 'x@example.test', language: 'en', data: { code: '1', expiresInMinutes: 1 } })).rejects.toThrow(MailDeliveryError);
    mail.close();
  });
});

describe('mail without SMTP: the outbox', () => {
  let outboxDir: string;
  beforeAll(async () => {
    outboxDir = await mkdtemp(join(tmpdir(), 'outbox-'));
  });
  afterAll(async () => {
    await rm(outboxDir, { recursive: true, force: true });
  });

  it('keeps each mail in the outbox, newest first, and writes it to the log for the operator', async () => {
    expect(await listOutbox(join(outboxDir, 'never-written'))).toEqual([]);
    const { log, lines } = recordingLog();
    const mail = createMailService({ from: FROM, outboxDir, log });
    const first = await mail.send('passwordReset', {
      to: 'member@example.test',
      language: 'ja',
      data: { name: '山田', resetUrl: 'https://demo.example.test/reset?token=t1', expiresInMinutes: 30 },
    });
    const second = await mail.send('verificationCode', { to: 'other@example.test', language: 'es', data: { code: '555111', expiresInMinutes: 10 } });
    mail.close();

    expect(first.via).toBe('outbox');
    const entries = await listOutbox(outboxDir);
    expect(entries.map((e) => e.id)).toEqual([second.id, first.id]);
    expect(entries[1]).toMatchObject({ template: 'passwordReset', to: 'member@example.test', language: 'ja', subject: 'パスワードの再設定' });
    expect(entries[1]!.text).toContain('https://demo.example.test/reset?token=t1');
    expect(entries[1]!.html).toContain('href="https://demo.example.test/reset?token=t1"');
    expect(await listOutbox(outboxDir, { limit: 1 })).toHaveLength(1);

    const logged = lines.find((line) => line.details.outboxId === second.id);
    expect(logged?.level).toBe('warn');
    expect(logged?.details).toMatchObject({ to: 'other@example.test', subject: 'Tu código de verificación de correo' });
    expect(String(logged?.details.text)).toContain('555111');
  });
});

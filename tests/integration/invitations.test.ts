import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invitations, mailOutbox, members, memberGroupLinks, plans, tenants } from '../../src/server/db/schema';
import { freePort } from '../fixtures/ports';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { waitFor } from './helpers/memberTransfer';

let server: TestServer;
let sink: SmtpSink;
let api: ReturnType<typeof apiClient>;
let admin: string;
const PASSWORD = 'Joined!2345';

beforeAll(async () => {
  // The mail server knows no mailbox "lost@…": it refuses it for good.
  sink = await startSmtpSink({ refuse: (address) => (address.startsWith('lost@') ? 550 : undefined) });
  server = await startTestServer({ config: { SMTP_URL: sink.url, SIGN_IN_EMAIL_RATE_LIMIT: 5 } });
  api = apiClient(server);
  admin = (await api.signIn(DEMO_ADMIN)).access_token;
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

/** The accept link's hash and the temporary password of the newest invitation mail to `email`. */
function invitationMail(email: string) {
  const mail = sink.received.filter((m) => m.envelopeTo.includes(email)).at(-1);
  const text = mail?.parsed.text ?? '';
  const hash = /\/auth\/invitation\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  const lines = text.split('\n').map((line) => line.trim());
  const temporary = lines.find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line));
  if (!hash || !temporary) throw new Error(`no invitation mail to ${email}: ${text}`);
  return { hash, temporary, subject: mail!.parsed.subject };
}

async function mandatoryPolicies(): Promise<number[]> {
  const policies = await api.call('/policies/');
  return policies.body.items.filter((p: { is_mandatory: boolean }) => p.is_mandatory).map((p: { id: number }) => p.id);
}

const invite = (rows: object[], token = admin) => api.call('/admin/invitations/bulk/', { method: 'POST', token, body: { members: rows } });

describe('inviting', () => {
  it('mails each invitee a link and a temporary password; rows that cannot be invited say why', async () => {
    const result = await invite([
      { email: 'Ada@Example.test', name: 'Ada Lovelace' },
      { email: 'not-an-email' },
      { email: DEMO_MEMBER.email },
      { email: 'ada@example.test' },
    ]);
    expect(result.status).toBe(200);
    expect(result.body.results.map((r: { result: string }) => r.result)).toEqual(['invited', 'invalid_email', 'already_exists', 'already_invited']);
    const mail = invitationMail('ada@example.test');
    expect(mail.subject).toMatch(/invit/i);
    const [stored] = await server.db.select().from(invitations).where(eq(invitations.email, 'ada@example.test'));
    // Only a hash of the temporary password is kept.
    expect(stored!.temporaryPasswordHash).not.toContain(mail.temporary);
    expect((await invite([{ email: 'ada@example.test' }])).body.results[0].result).toBe('already_invited');
    // Only the invitation made is in the audit log, by the inviting admin.
    const audited = await server.db.select().from(auditLog).where(eq(auditLog.action, 'invitation.create'));
    expect(audited).toEqual([
      expect.objectContaining({
        actorEmail: DEMO_ADMIN.email,
        targetType: 'invitation',
        targetId: String(stored!.id),
        changes: { email: 'ada@example.test', name: 'Ada Lovelace', member_group_id: null },
      }),
    ]);
  });

  it('lists, searches and deletes invitations; members may not', async () => {
    const listed = await api.call('/admin/invitations/?search_term=lovelace', { token: admin });
    expect(listed.body).toMatchObject({
      total_items: 1,
      items: [{ email: 'ada@example.test', name: 'Ada Lovelace', status: 'pending', invited_by: DEMO_ADMIN.email }],
    });
    const member = (await api.signIn(DEMO_MEMBER)).access_token;
    expect((await api.call('/admin/invitations/', { token: member })).status).toBe(403);
    expect((await invite([{ email: 'x@example.test' }], member)).status).toBe(403);
    await invite([{ email: 'gone@example.test' }]);
    const gone = (await api.call('/admin/invitations/?search_term=gone', { token: admin })).body.items[0].id;
    expect((await api.call('/admin/invitations/bulk/delete/', { method: 'POST', token: admin, body: { invitation_ids: [gone] } })).body).toEqual({
      deleted: 1,
    });
    expect(await server.db.select().from(auditLog).where(eq(auditLog.action, 'invitation.delete'))).toEqual([
      expect.objectContaining({ actorEmail: DEMO_ADMIN.email, targetId: String(gone), changes: { email: 'gone@example.test', status: 'pending' } }),
    ]);
    const again = await api.call('/admin/invitations/bulk/delete/', { method: 'POST', token: admin, body: { invitation_ids: [gone] } });
    expect(again.status).toBe(404);
    expect((await api.call(`/invitations/${invitationMail('gone@example.test').hash}/verify/`)).status).toBe(404);
  });

  it("refuses with 402 what would exceed the plan's invitation limit", async () => {
    const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, server.config.DEFAULT_TENANT));
    await server.db.update(plans).set({ invitationLimit: 2 }).where(eq(plans.id, demo!.planId!));
    try {
      const over = await invite([{ email: 'one@example.test' }, { email: 'two@example.test' }]);
      expect([over.status, over.body.code]).toEqual([402, 'invitation_limit_reached']);
    } finally {
      await server.db.update(plans).set({ invitationLimit: null }).where(eq(plans.id, demo!.planId!));
    }
  });

  it('keeps no invitation whose address the mail server refuses for good (invitation_email_failed)', async () => {
    const result = await invite([{ email: 'lost@example.test' }, { email: 'found@example.test' }]);
    expect(result.body.results).toEqual([
      { email: 'lost@example.test', result: 'invitation_email_failed', invitation_id: null },
      { email: 'found@example.test', result: 'invited', invitation_id: expect.any(Number) },
    ]);
    expect(await server.db.select().from(invitations).where(eq(invitations.email, 'lost@example.test'))).toEqual([]);
    expect(invitationMail('found@example.test').temporary).toBeTruthy();
    const withdrawn = await server.db.select().from(auditLog).where(eq(auditLog.action, 'invitation.delete'));
    expect(withdrawn.filter((row) => row.changes.email === 'lost@example.test')).toEqual([
      expect.objectContaining({ actorEmail: DEMO_ADMIN.email, changes: { email: 'lost@example.test', reason: 'invitation_email_failed' } }),
    ]);
    const [failed] = await server.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'lost@example.test'));
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('keeps an invitation whose mail cannot go yet: the outbox sends it, with its one password, once the mail server is back', async () => {
    const port = await freePort();
    const waiting = await startTestServer({
      config: { SMTP_URL: `smtp://mailer:secret@127.0.0.1:${port}`, MAIL_RETRY_SECONDS: 0.2, JOB_POLL_INTERVAL_SECONDS: 0.5 },
    });
    let back: SmtpSink | undefined;
    try {
      const waitingApi = apiClient(waiting);
      const token = (await waitingApi.signIn(DEMO_ADMIN)).access_token;
      const result = await waitingApi.call('/admin/invitations/bulk/', { method: 'POST', token, body: { members: [{ email: 'patient@example.test' }] } });
      expect(result.body.results).toEqual([{ email: 'patient@example.test', result: 'invited', invitation_id: expect.any(Number) }]);
      back = await startSmtpSink({ port });
      const mail = await waitFor(async () => back!.received[0], 'the retried invitation mail');
      const hash = /\/auth\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')![1]!;
      const temporary = (mail.parsed.text ?? '')
        .split('\n')
        .map((line) => line.trim())
        .find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line))!;
      const accepted = await waitingApi.call(`/invitations/${hash}/accept/`, {
        method: 'POST',
        body: {
          email: 'patient@example.test',
          name: 'Pat Ient',
          password: PASSWORD,
          agreements: await mandatoryPolicies(),
          temporary_password: temporary,
          language: 'en',
        },
      });
      expect(accepted.status).toBe(200);
      expect(back.received).toHaveLength(1);
    } finally {
      await waiting.close();
      await back?.close();
    }
  });
});

describe('accepting', () => {
  it('shows the invitation, refuses a wrong temporary password, then makes an approved member who signs in', async () => {
    const { hash, temporary } = invitationMail('ada@example.test');
    const verified = await api.call(`/invitations/${hash}/verify/`);
    expect(verified.body).toEqual({ tenant_name: expect.any(String), email: 'ada@example.test', name: 'Ada Lovelace' });

    const body = {
      email: 'ada@example.test',
      name: 'Ada Lovelace',
      password: PASSWORD,
      agreements: await mandatoryPolicies(),
      temporary_password: temporary,
      language: 'ko',
    };
    const wrong = await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body: { ...body, temporary_password: 'Wrong1234!' } });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'wrong_temporary_password']);
    const otherEmail = await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body: { ...body, email: 'eve@example.test' } });
    expect([otherEmail.status, otherEmail.body.code]).toEqual([422, 'invalid_email']);
    const noPolicy = await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body: { ...body, agreements: [] } });
    expect([noPolicy.status, noPolicy.body.code]).toEqual([422, 'policy_agreement_required']);
    // Issue 20: the new password is checked against the common-password list too.
    const common = await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body: { ...body, password: 'Qwerty123!' } });
    expect([common.status, common.body.code]).toEqual([422, 'common_password']);

    const accepted = await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body });
    expect(accepted.status).toBe(200);
    const [member] = await server.db.select().from(members).where(eq(members.email, 'ada@example.test'));
    expect(member).toMatchObject({ status: 'approved', language: 'ko', name: 'Ada Lovelace' });
    expect(await server.db.select().from(memberGroupLinks).where(eq(memberGroupLinks.memberId, member!.id))).toHaveLength(1);
    const session = await api.signIn({ email: 'ada@example.test', password: PASSWORD });
    expect(session.member.member_status).toBe('approved');

    // Used: the link is gone.
    expect((await api.call(`/invitations/${hash}/verify/`)).status).toBe(404);
    expect((await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body })).body.code).toBe('invitation_not_found');
  });

  it('stops guessing the temporary password after a few tries (429)', async () => {
    await invite([{ email: 'guess@example.test' }]);
    const { hash, temporary } = invitationMail('guess@example.test');
    const body = {
      email: 'guess@example.test',
      name: 'Guess Who',
      password: PASSWORD,
      agreements: await mandatoryPolicies(),
      temporary_password: 'Nope1234!x',
    };
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Even the right one waits out the window.
    expect((await api.call(`/invitations/${hash}/accept/`, { method: 'POST', body: { ...body, temporary_password: temporary } })).status).toBe(429);
  });

  it('answers 404 for an unknown invitation and 400 for a malformed one', async () => {
    expect((await api.call('/invitations/AAAAAAAAAAAAAAAAAAAAAAAA/verify/')).body.code).toBe('invitation_not_found');
    expect((await api.call('/invitations/x/verify/')).status).toBe(400);
  });
});

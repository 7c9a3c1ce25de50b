/**
 * Forgot password, reset with the mailed link, change password, and the brute-force limits of
 * sign-in and reset (spec §2, §8 "Reset password"), against the real server with mail read from
 * the loopback SMTP server.
 */
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../src/server/clock';
import { mailOutbox, members, passwordResetTokens, rateLimits, tenants } from '../../src/server/db/schema';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

const NEW_PASSWORD = 'Fresh-Start#2026';
/** A tenant of the first server for the issue 20 tests: its demo accounts keep their seeded passwords until then. */
const FRESH_TENANT = 'fresh';

/** The reset link of the newest mail to `to`, and its token. */
function lastResetLink(sink: SmtpSink, to: string): { url: URL; token: string } {
  const mail = sink.received.filter((m) => m.envelopeTo.includes(to)).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  const href = /https?:\/\/\S+\/auth\/reset\/[A-Za-z0-9_-]+(\?\S*)?/.exec(mail.parsed.text ?? '')?.[0];
  if (!href) throw new Error(`no reset link in: ${mail.parsed.text}`);
  const url = new URL(href);
  return { url, token: url.pathname.split('/').at(-1)! };
}

let sink: SmtpSink;
let server: TestServer;
let client: ReturnType<typeof apiClient>;
/** While set, the SMTP server refuses every recipient for now (451), as one that is down would fail every mail. */
let mailRefused = false;

beforeAll(async () => {
  sink = await startSmtpSink({ refuse: () => (mailRefused ? 451 : undefined) });
  server = await startTestServer({
    config: { SMTP_URL: sink.url, PUBLIC_URL: 'https://chat.example.test', PASSWORD_RESET_TTL_MINUTES: 30 },
    extraTenants: ['acme', FRESH_TENANT],
  });
  client = apiClient(server);
});
afterAll(async () => {
  await server.close();
  await sink.close();
});

describe('passwords', () => {
  const requestReset = (email: string, tenant?: string) => client.call('/auth/reset-password/', { method: 'POST', body: { email }, tenant });
  const confirm = (token: string, newPassword: string, tenant?: string) =>
    client.call('/auth/reset-password/confirm/', { method: 'POST', body: { token, new_password: newPassword }, tenant });

  it('mails a link to the web app in the member’s language; it sets the password once and ends every session', async () => {
    const before = await client.signIn(DEMO_ADMIN);
    await server.db.update(members).set({ language: 'ja' }).where(eq(members.email, DEMO_ADMIN.email));

    expect((await requestReset('  Admin@Demo.test ')).status).toBe(200);
    const mail = sink.received.at(-1)!;
    expect(mail.envelopeTo).toEqual([DEMO_ADMIN.email]);
    expect(mail.parsed.headers.get('content-language')).toBe('ja');
    const { url, token } = lastResetLink(sink, DEMO_ADMIN.email);
    expect(url.origin).toBe('https://chat.example.test');
    expect(url.search).toBe('');
    // Only a hash is stored.
    const rows = await server.db.select().from(passwordResetTokens);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);

    // A weak password is refused without using the link up.
    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(422);
    expect((await confirm(token, NEW_PASSWORD)).status).toBe(200);
    const again = await confirm(token, 'Another#Pass123');
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('reset_link_invalid');

    // The old session's refresh token is dead; the reset itself signed nobody in.
    const refreshed = await client.call('/auth/refresh/', {
      method: 'POST',
      body: { refresh_token: before.refresh_token },
      headers: { 'x-client-kind': 'desktop' },
    });
    expect(refreshed.status).toBe(401);
    expect((await client.call('/auth/sign-in/', { method: 'POST', body: DEMO_ADMIN })).status).toBe(401);
    await client.signIn({ email: DEMO_ADMIN.email, password: NEW_PASSWORD });
  });

  it('refuses an expired link with its own message, and an unknown one', async () => {
    await requestReset(DEMO_MEMBER.email);
    const { token } = lastResetLink(sink, DEMO_MEMBER.email);
    await server.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await confirm(token, NEW_PASSWORD);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('reset_link_expired');
    const unknown = await confirm('not-a-token', NEW_PASSWORD);
    expect(unknown.body.code).toBe('reset_link_invalid');
    await client.signIn(DEMO_MEMBER);
  });

  it('answers unknown emails exactly like known ones and mails nothing (no account enumeration)', async () => {
    const count = sink.received.length;
    const unknown = await requestReset('nobody@demo.test');
    expect(unknown).toMatchObject({ status: 200, body: { ok: true } });
    expect(sink.received.length).toBe(count);
  });

  it('answers 400 for a malformed body and 422 for an invalid email', async () => {
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: {} })).status).toBe(400);
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email: 'x'.repeat(300) } })).status).toBe(400);
    expect((await requestReset('not-an-email')).status).toBe(422);
  });

  it('a link of another tenant names it and works only there', async () => {
    await requestReset(DEMO_MEMBER.email, 'acme');
    const { url, token } = lastResetLink(sink, DEMO_MEMBER.email);
    expect(url.searchParams.get('tenant')).toBe('acme');
    expect((await confirm(token, NEW_PASSWORD)).body.code).toBe('reset_link_invalid');
    expect((await confirm(token, NEW_PASSWORD, 'acme')).status).toBe(200);
    await client.signIn({ email: DEMO_MEMBER.email, password: NEW_PASSWORD }, 'acme');
  });

  it('answers 424 when the reset mail cannot be sent, and keeps no usable link nor a mail to send later', async () => {
    // acme's admin has asked for no link before.
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'acme'));
    const [admin] = await server.db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenant!.id), eq(members.email, DEMO_ADMIN.email)));
    mailRefused = true;
    try {
      const result = await requestReset(DEMO_ADMIN.email, 'acme');
      expect(result.status).toBe(424);
      expect(result.body.code).toBe('mail_failed');
    } finally {
      mailRefused = false;
    }
    expect(await server.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.memberId, admin!.id))).toEqual([]);
    // The mail's row is failed for good, although the refusal was for now: the outbox never sends a link the member was told did not go.
    const mails = await server.db
      .select({ template: mailOutbox.template, status: mailOutbox.status })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.tenantId, tenant!.id), eq(mailOutbox.recipient, DEMO_ADMIN.email)));
    expect(mails).toEqual([{ template: 'passwordReset', status: 'failed' }]);
  });

  describe('change password', () => {
    it('refuses a wrong current password with 400 and a weak new one with 422', async () => {
      const session = await client.signIn({ email: DEMO_ADMIN.email, password: NEW_PASSWORD });
      const wrong = await client.call('/auth/change-password/', {
        method: 'POST',
        token: session.access_token,
        body: { password: 'Wrong#123', new_password: 'Other#Pass123' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe('wrong_password');
      const weak = await client.call('/auth/change-password/', {
        method: 'POST',
        token: session.access_token,
        body: { password: NEW_PASSWORD, new_password: 'password' },
      });
      expect(weak.status).toBe(422);
      expect((await client.call('/auth/change-password/', { method: 'POST', body: { password: 'a', new_password: 'b' } })).status).toBe(401);
    });

    it('ends the other sessions and keeps the one that changed it (web cookie)', async () => {
      const other = await client.signIn({ email: DEMO_ADMIN.email, password: NEW_PASSWORD });
      // A web sign-in: the refresh token comes as the cookie, sent back on /api/v1/auth/ paths.
      const web = await client.call('/auth/sign-in/', { method: 'POST', body: { email: DEMO_ADMIN.email, password: NEW_PASSWORD } });
      const cookie = web.headers.get('set-cookie')!.split(';')[0]!;
      const changed = await client.call('/auth/change-password/', {
        method: 'POST',
        token: web.body.access_token,
        headers: { cookie },
        body: { password: NEW_PASSWORD, new_password: 'Changed#Pass456' },
      });
      expect(changed.status).toBe(200);
      expect((await client.call('/auth/refresh/', { method: 'POST', body: {}, headers: { cookie } })).status).toBe(200);
      const otherRefresh = await client.call('/auth/refresh/', {
        method: 'POST',
        body: { refresh_token: other.refresh_token },
        headers: { 'x-client-kind': 'desktop' },
      });
      expect(otherRefresh.status).toBe(401);
      await client.signIn({ email: DEMO_ADMIN.email, password: 'Changed#Pass456' });
    });

    it('keeps the desktop session that changed it too: the access token names its session, no cookie needed', async () => {
      const other = await client.signIn({ email: DEMO_ADMIN.email, password: 'Changed#Pass456' });
      const desktop = await client.signIn({ email: DEMO_ADMIN.email, password: 'Changed#Pass456' });
      const changed = await client.call('/auth/change-password/', {
        method: 'POST',
        token: desktop.access_token,
        body: { password: 'Changed#Pass456', new_password: 'Desktop#Pass789' },
      });
      expect(changed.status).toBe(200);
      const refresh = (token: string) =>
        client.call('/auth/refresh/', { method: 'POST', body: { refresh_token: token }, headers: { 'x-client-kind': 'desktop' } });
      expect((await refresh(desktop.refresh_token)).status).toBe(200);
      expect((await refresh(other.refresh_token)).status).toBe(401);
    });
  });
});

describe('brute-force limits', () => {
  let sink: SmtpSink;
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({
      config: {
        SMTP_URL: sink.url,
        // Long enough for every counted request to fall in one window however slow the machine; the test ends it.
        AUTH_RATE_WINDOW_SECONDS: 60,
        SIGN_IN_EMAIL_RATE_LIMIT: 3,
        SIGN_IN_EMAIL_FREE_FAILURES: 3,
        PASSWORD_RESET_EMAIL_RATE_LIMIT: 2,
        PASSWORD_RESET_IP_RATE_LIMIT: 4,
      },
    });
    client = apiClient(server);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  it('makes the client that keeps failing on an email wait (429 and a retry time), on the server clock, then lets it in', async () => {
    let now = new Date('2031-05-01T08:00:00Z');
    setClock(() => now);
    try {
      for (let i = 0; i < 3; i++) {
        expect((await client.call('/auth/sign-in/', { method: 'POST', body: { email: DEMO_MEMBER.email, password: 'Guess#000' + i } })).status).toBe(401);
      }
      // This client has been failing: even the right password waits (sign-in delays, auth.test.ts has the rest).
      const limited = await client.call('/auth/sign-in/', { method: 'POST', body: DEMO_MEMBER });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBe(1);
      expect(limited.body.details.retry_after_seconds).toBe(1);
      // Another email is not affected.
      await client.signIn(DEMO_ADMIN);
      now = new Date(now.getTime() + 1000);
      await client.signIn(DEMO_MEMBER);
    } finally {
      setClock(null);
    }
  });

  it('limits reset requests per email and per IP, and reset confirmations per IP', async () => {
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email: DEMO_MEMBER.email } })).status).toBe(200);
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email: DEMO_MEMBER.email } })).status).toBe(200);
    const limited = await client.call('/auth/reset-password/', { method: 'POST', body: { email: DEMO_MEMBER.email } });
    expect(limited.status).toBe(429);
    // Counted in the window AUTH_RATE_WINDOW_SECONDS sets, not the production default of 15 minutes.
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Per IP: other emails too, up to the IP's 4 in the window.
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email: 'a@demo.test' } })).status).toBe(200);
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email: 'b@demo.test' } })).status).toBe(429);

    for (let i = 0; i < 4; i++)
      expect((await client.call('/auth/reset-password/confirm/', { method: 'POST', body: { token: `guess-${i}`, new_password: NEW_PASSWORD } })).status).toBe(
        400,
      );
    expect((await client.call('/auth/reset-password/confirm/', { method: 'POST', body: { token: 'guess-5', new_password: NEW_PASSWORD } })).status).toBe(429);

    // The windows end (on the database clock, which decides): a new one counts from 1 again.
    await server.db
      .update(rateLimits)
      .set({ resetAt: sql`now() - interval '1 second'` })
      .where(like(rateLimits.key, 'password-reset%'));
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email: DEMO_MEMBER.email } })).status).toBe(200);
  });
});

describe('new passwords: the common-password list, the tenant’s minimum length, sessions ended at once (issue 20)', () => {
  const tenant = FRESH_TENANT;
  const confirm = (token: string, newPassword: string) =>
    client.call('/auth/reset-password/confirm/', { method: 'POST', body: { token, new_password: newPassword }, tenant });
  const mailedToken = async (email: string) => {
    expect((await client.call('/auth/reset-password/', { method: 'POST', body: { email }, tenant })).status).toBe(200);
    return lastResetLink(sink, email).token;
  };
  const works = async (token: string) => (await client.call('/chatbots/', { token, tenant })).status;
  const signIn = (credentials: { email: string; password: string }) => client.signIn(credentials, tenant);

  it('refuses common passwords that pass the character rule, on reset (the link stays usable) and on change', async () => {
    const token = await mailedToken(DEMO_MEMBER.email);
    for (const common of ['Password1!', 'P@ssw0rd!', 'qwerty123!', '!Sunshine2024', 'Iloveyou#1']) {
      const refused = await confirm(token, common);
      expect(refused.status, common).toBe(422);
      expect(refused.body.code, common).toBe('common_password');
      expect(refused.body.details.reason).toBe('validation.password_common');
    }
    expect((await confirm(token, 'Vq7#mLp2xR')).status).toBe(200);

    const session = await signIn({ email: DEMO_MEMBER.email, password: 'Vq7#mLp2xR' });
    const change = (newPassword: string) =>
      client.call('/auth/change-password/', {
        method: 'POST',
        token: session.access_token,
        body: { password: 'Vq7#mLp2xR', new_password: newPassword },
        tenant,
      });
    const refused = await change('Welcome123!');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('common_password');
    expect((await change('Tq8$wNz4kS')).status).toBe(200);
  });

  it('applies the minimum length the tenant’s admin set to new passwords only: existing members keep theirs', async () => {
    const admin = await signIn(DEMO_ADMIN);
    const set = await client.call('/admin/tenant-settings/', { method: 'PATCH', token: admin.access_token, body: { password_min_length: 14 }, tenant });
    expect(set.status).toBe(200);
    expect(set.body.password_min_length).toBe(14);
    expect((await client.call('/tenants/', { tenant })).body.password_min_length).toBe(14);
    try {
      // The admin's 13-character password still signs in.
      await signIn(DEMO_ADMIN);
      const token = await mailedToken(DEMO_MEMBER.email);
      const short = await confirm(token, 'Kx9#vTq2Lm4!');
      expect(short.status).toBe(422);
      expect(short.body).toMatchObject({ code: 'validation_error', details: { reason: 'validation.password_too_short', min_length: 14 } });
      expect((await confirm(token, 'Kx9#vTq2Lm4!zP')).status).toBe(200);
    } finally {
      await server.db.update(tenants).set({ passwordMinLength: 8 }).where(eq(tenants.subdomain, tenant));
    }
  });

  it('a reset ends every session at once: refresh tokens and the access tokens already issued', async () => {
    const first = await signIn({ email: DEMO_MEMBER.email, password: 'Kx9#vTq2Lm4!zP' });
    expect(await works(first.access_token)).toBe(200);
    expect((await confirm(await mailedToken(DEMO_MEMBER.email), 'Rz5&hWq8nB')).status).toBe(200);
    const refused = await client.call('/chatbots/', { token: first.access_token, tenant });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('session_expired');
  });

  it('a change ends the other sessions’ access tokens at once and keeps the caller’s', async () => {
    const other = await signIn({ email: DEMO_MEMBER.email, password: 'Rz5&hWq8nB' });
    const mine = await signIn({ email: DEMO_MEMBER.email, password: 'Rz5&hWq8nB' });
    const changed = await client.call('/auth/change-password/', {
      method: 'POST',
      token: mine.access_token,
      body: { password: 'Rz5&hWq8nB', new_password: 'Jm3*cYt7pD' },
      tenant,
    });
    expect(changed.status).toBe(200);
    expect(await works(mine.access_token)).toBe(200);
    expect(await works(other.access_token)).toBe(401);
  });
});

import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { setClock } from '../../src/server/clock';
import { members, serverSecrets, tenants } from '../../src/server/db/schema';
import { REFRESH_REUSE_GRACE_MS, hashPassword } from '../../src/server/domains/auth/service';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;

async function addMember(
  email: string,
  status: 'pending' | 'rejected' | 'deactivated' | 'approved',
  memberType: 'organization' | 'individual' = 'organization',
) {
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  await server.db.insert(members).values({
    tenantId: tenant!.id,
    email,
    name: email.split('@')[0]!,
    passwordHash: await hashPassword('Password!123'),
    status,
    memberType,
  });
}

function refreshCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((cookie) => cookie.startsWith('refresh_token='));
}

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['closed'] });
  api = apiClient(server);
  await addMember('pending@demo.test', 'pending', 'individual');
  await addMember('rejected@demo.test', 'rejected');
  await addMember('leaving@demo.test', 'approved');
  await server.db.update(tenants).set({ planStatus: 'inactive' }).where(eq(tenants.subdomain, 'closed'));
});
afterAll(() => server?.close());

describe('POST /auth/sign-in/', () => {
  it('signs in the demo admin, returns the member and sets an HttpOnly refresh cookie for the web', async () => {
    const result = await api.call('/auth/sign-in/', { method: 'POST', body: DEMO_ADMIN });
    expect(result.status).toBe(200);
    expect(result.body.member).toMatchObject({ email: DEMO_ADMIN.email, is_admin: true, member_status: 'approved' });
    expect(result.body.access_token).toEqual(expect.any(String));
    expect(result.body.refresh_token).toBeUndefined();
    const cookie = refreshCookie(result.headers);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
  });

  it('gives a desktop client the refresh token in the body and sets no cookie', async () => {
    const result = await api.call('/auth/sign-in/', { method: 'POST', body: DEMO_MEMBER, headers: { 'x-client-kind': 'desktop' } });
    expect(result.status).toBe(200);
    expect(result.body.refresh_token).toEqual(expect.any(String));
    expect(refreshCookie(result.headers)).toBeUndefined();
  });

  it('answers 400 for a malformed body', async () => {
    const result = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'admin@demo.test' } });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('validation_error');
  });

  it('answers 422 for an email that is not well-formed', async () => {
    const result = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'not-an-email', password: 'whatever1!' } });
    expect(result.status).toBe(422);
  });

  it('answers 401 for a wrong password and for an unknown email alike', async () => {
    const wrong = await api.call('/auth/sign-in/', { method: 'POST', body: { ...DEMO_ADMIN, password: 'Wrong!2345' } });
    const unknown = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'nobody@demo.test', password: 'Wrong!2345' } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('invalid_credentials');
  });

  it('answers 403 with the member type for a member not yet approved', async () => {
    const result = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'pending@demo.test', password: 'Password!123' } });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ code: 'not_approved', details: { member_type: 'individual' } });
  });

  it('answers 423 for a rejected member and for a tenant without an active plan', async () => {
    const rejected = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'rejected@demo.test', password: 'Password!123' } });
    const closedTenant = await api.call('/auth/sign-in/', { method: 'POST', body: DEMO_ADMIN, tenant: 'closed' });
    expect(rejected.status).toBe(423);
    expect(closedTenant.status).toBe(423);
    expect(closedTenant.body.code).toBe('not_eligible');
  });

  it('rate-limits sign-in attempts per client', async () => {
    const limited = await buildApp({ db: server.db, config: { ...server.config, SIGN_IN_RATE_LIMIT: 2 } });
    // A client of its own: the counters are shared with every app on this database.
    const attempt = (remoteAddress = '192.0.2.41') =>
      limited.inject({ method: 'POST', url: '/api/v1/auth/sign-in/', remoteAddress, payload: { email: 'x@demo.test', password: 'Wrong!2345' } });
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(401);
    const third = await attempt();
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('rate_limited');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt('192.0.2.42')).statusCode).toBe(401);
    await limited.close();
  });
});

describe('access tokens', () => {
  it('are required on member endpoints and checked for tampering', async () => {
    const { access_token, member } = await api.signIn(DEMO_MEMBER);
    expect((await api.call(`/members/${member.id}/`)).status).toBe(401);
    expect((await api.call(`/members/${member.id}/`, { token: access_token })).status).toBe(200);
    const [version, payload, signature] = access_token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 1 })).toString('base64url');
    expect((await api.call(`/members/${member.id}/`, { token: `${version}.${forged}.${signature}` })).status).toBe(401);
  });
});

describe('POST /auth/refresh/', () => {
  /** The `refresh_token=…` pair a browser sends back, from a response's Set-Cookie. */
  const cookieOf = (result: { headers: Headers }) => refreshCookie(result.headers)!.split(';')[0]!;
  const refreshWithCookie = (cookie: string) => api.call('/auth/refresh/', { method: 'POST', body: {}, headers: { cookie } });
  const webSignIn = async () => cookieOf(await api.call('/auth/sign-in/', { method: 'POST', body: DEMO_ADMIN }));
  /** Moves the server's clock past the reuse grace window. */
  const afterGraceWindow = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + REFRESH_REUSE_GRACE_MS + 1000);
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rotates the web cookie: the new token works, the old one is refused after the grace window and revokes the family', async () => {
    const first = await webSignIn();

    const rotated = await refreshWithCookie(first);
    expect(rotated.status).toBe(200);
    expect(rotated.body.access_token).toEqual(expect.any(String));
    const second = cookieOf(rotated);
    expect(second).not.toBe(first);

    afterGraceWindow();
    const reused = await refreshWithCookie(first);
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('session_expired');

    // Reuse revoked the whole family: the legitimately rotated token is dead too.
    const afterReuse = await refreshWithCookie(second);
    expect(afterReuse.status).toBe(401);
  });

  it('gives two tabs refreshing with the same cookie at once a session each, in the same token family', async () => {
    const shared = await webSignIn();

    const [dashboardTab, adminTab] = await Promise.all([refreshWithCookie(shared), refreshWithCookie(shared)]);
    expect([dashboardTab.status, adminTab.status]).toEqual([200, 200]);
    const [dashboardCookie, adminCookie] = [cookieOf(dashboardTab), cookieOf(adminTab)];
    expect(new Set([shared, dashboardCookie, adminCookie]).size).toBe(3);
    expect((await api.call('/chatbots/', { token: adminTab.body.access_token })).status).toBe(200);

    // Both tabs keep refreshing normally afterwards.
    const dashboardNext = await refreshWithCookie(dashboardCookie);
    expect(dashboardNext.status).toBe(200);

    // The same family: presenting the shared token again once the window has passed revokes both tabs' tokens.
    afterGraceWindow();
    expect((await refreshWithCookie(shared)).status).toBe(401);
    expect((await refreshWithCookie(cookieOf(dashboardNext))).status).toBe(401);
    expect((await refreshWithCookie(adminCookie)).status).toBe(401);
  });

  it('keeps a revoked family revoked, even for a token rotated within the grace window', async () => {
    const first = await webSignIn();
    const second = cookieOf(await refreshWithCookie(first));
    expect((await api.call('/auth/sign-out/', { method: 'POST', body: {}, headers: { cookie: second } })).status).toBe(200);

    const late = await refreshWithCookie(first);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('session_expired');
    expect((await refreshWithCookie(second)).status).toBe(401);
  });

  it('rotates a desktop token given in the body', async () => {
    const { refresh_token } = await api.signIn(DEMO_MEMBER);
    const rotated = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token }, headers: { 'x-client-kind': 'desktop' } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).toEqual(expect.any(String));
    expect(rotated.body.refresh_token).not.toBe(refresh_token);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expect((await api.call('/auth/refresh/', { method: 'POST', body: {} })).status).toBe(401);
    const unknown = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token: 'nope' }, headers: { 'x-client-kind': 'desktop' } });
    expect(unknown.status).toBe(401);
  });

  it('answers 403 account_deactivated once the member is deactivated', async () => {
    const { refresh_token, access_token, member } = await api.signIn({ email: 'leaving@demo.test', password: 'Password!123' });
    await server.db.update(members).set({ status: 'deactivated' }).where(eq(members.id, member.id));
    const result = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token }, headers: { 'x-client-kind': 'desktop' } });
    expect(result.status).toBe(403);
    expect(result.body.code).toBe('account_deactivated');
    expect((await api.call(`/members/${member.id}/`, { token: access_token })).status).toBe(403);
  });
});

describe('revoked sessions refuse their access tokens at once (issue 20)', () => {
  const desktop = { 'x-client-kind': 'desktop' };
  const me = (token: string) => api.call('/chatbots/', { token });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sign-out: the session’s access token answers 401 session_expired on the next request; other sessions keep working', async () => {
    const signedOut = await api.signIn(DEMO_MEMBER);
    const other = await api.signIn(DEMO_MEMBER);
    expect((await me(signedOut.access_token)).status).toBe(200);
    expect((await api.call('/auth/sign-out/', { method: 'POST', body: { refresh_token: signedOut.refresh_token }, headers: desktop })).status).toBe(200);
    const refused = await me(signedOut.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('session_expired');
    expect((await me(other.access_token)).status).toBe(200);
  });

  it('a detected refresh-token reuse: every access token of the family is refused, the thief’s and the owner’s', async () => {
    const stolen = await api.signIn(DEMO_MEMBER);
    const owner = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token: stolen.refresh_token }, headers: desktop });
    expect(owner.status).toBe(200);
    expect((await me(owner.body.access_token)).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + REFRESH_REUSE_GRACE_MS + 1000);
    expect((await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token: stolen.refresh_token }, headers: desktop })).status).toBe(401);
    for (const token of [stolen.access_token, owner.body.access_token as string]) {
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('session_expired');
    }
  });

  it('refuses a validly signed access token whose session does not exist or that names none', async () => {
    const { access_token } = await api.signIn(DEMO_MEMBER);
    const [version, payload] = access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    // Signed with the tenant's own key, as only the server (or someone holding its key) could.
    const [secret] = await server.db
      .select()
      .from(serverSecrets)
      .where(eq(serverSecrets.tenantId, claims.tid as number));
    const sign = (body: object) => {
      const unsigned = `${version}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
      return `${unsigned}.${createHmac('sha256', Buffer.from(secret!.value, 'base64url')).update(unsigned).digest('base64url')}`;
    };
    expect((await me(sign(claims))).status).toBe(200);
    const { fam: _fam, ...withoutFamily } = claims;
    for (const token of [sign({ ...claims, fam: 'a-family-nobody-issued' }), sign(withoutFamily)]) {
      const refused = await me(token);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('session_expired');
    }
  });
});

describe('sign-in: growing delays instead of a lockout (issue 20)', () => {
  let delayed: Awaited<ReturnType<typeof buildApp>>;
  let now = new Date('2031-03-01T09:00:00Z');
  const target = { email: 'target@demo.test', password: 'Password!123' };
  const attempt = (remoteAddress: string, body: { email: string; password: string }) =>
    delayed.inject({ method: 'POST', url: '/api/v1/auth/sign-in/', remoteAddress, payload: body });
  const wrong = (email: string) => ({ email, password: 'Wrong#guess1' });
  const wait = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };

  beforeAll(async () => {
    await addMember(target.email, 'approved');
    await addMember('grower@demo.test', 'approved');
    setClock(() => now);
    // Another process on the same database: the failures live in the shared store.
    delayed = await buildApp({
      db: server.db,
      config: { ...server.config, SIGN_IN_EMAIL_FREE_FAILURES: 3, SIGN_IN_IP_FREE_FAILURES: 5, SIGN_IN_DELAY_MAX_SECONDS: 8 },
    });
  });
  afterAll(async () => {
    setClock(null);
    await delayed?.close();
  });

  it('ten wrong passwords never lock the owner out: a client that has not been failing signs in with the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt('192.0.2.61', wrong(target.email))).statusCode);
    // Three free failures, then the failing client waits (429) instead of guessing on.
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    // The attacker's client is answered 429 even with the right password: its guesses are not checked while it waits.
    const attacker = await attempt('192.0.2.61', target);
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json()).toMatchObject({ code: 'rate_limited', details: { retry_after_seconds: 1 } });
    expect(attacker.headers['retry-after']).toBe('1');
    // The owner, from a client with no failures, is never refused.
    const owner = await attempt('192.0.2.62', target);
    expect(owner.statusCode).toBe(200);
  });

  it('each further failure doubles the wait (1 s, 2 s, 4 s… up to the cap), measured on the server clock', async () => {
    const client = '192.0.2.63';
    for (let i = 0; i < 3; i++) expect((await attempt(client, wrong('grower@demo.test'))).statusCode).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 5; round++) {
      const refused = await attempt(client, wrong('grower@demo.test'));
      expect(refused.statusCode).toBe(429);
      const seconds = Number(refused.headers['retry-after']);
      waits.push(seconds);
      // One second early is still too early; on time, the attempt is checked (and fails again).
      wait(seconds - 1);
      if (seconds > 1) expect((await attempt(client, wrong('grower@demo.test'))).statusCode).toBe(429);
      wait(1);
      expect((await attempt(client, wrong('grower@demo.test'))).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8]);
    // Once its wait is over, the right password signs in from that client too.
    wait(8);
    expect((await attempt(client, { email: 'grower@demo.test', password: 'Password!123' })).statusCode).toBe(200);
  });

  it('slows down a client that fails on many addresses (per client IP), not the other clients', async () => {
    const client = '192.0.2.64';
    for (let i = 0; i < 5; i++) expect((await attempt(client, wrong(`spray${i}@demo.test`))).statusCode).toBe(401);
    expect((await attempt(client, wrong('spray9@demo.test'))).statusCode).toBe(429);
    expect((await attempt(client, DEMO_ADMIN)).statusCode).toBe(429);
    expect((await attempt('192.0.2.164', DEMO_ADMIN)).statusCode).toBe(200);
  });

  it('makes every client that has been failing wait for the address’s delay (a botnet gains nothing), never a fresh one', async () => {
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    expect(tenant).toBeDefined();
    for (let i = 0; i < 3; i++) expect((await attempt(`192.0.2.${70 + i}`, wrong(target.email))).statusCode).toBe(401);
    // A bot that has failed once elsewhere meets the address's delay, even with the right password.
    expect((await attempt('192.0.2.80', wrong('elsewhere@demo.test'))).statusCode).toBe(401);
    expect((await attempt('192.0.2.80', target)).statusCode).toBe(429);
    expect((await attempt('192.0.2.81', target)).statusCode).toBe(200);
    // Failures are forgotten a day after the last one.
    wait(86_400);
    expect((await attempt('192.0.2.80', target)).statusCode).toBe(200);
  });

  it('never applies the new-password rules to a password being signed in with', async () => {
    // A wrong password that breaks the rules is just wrong (401), not a 422 about the rule.
    for (const password of ['abc', 'password', 'x'.repeat(200)]) {
      const result = await attempt('192.0.2.90', { email: DEMO_MEMBER.email, password });
      expect(result.statusCode, password).toBe(401);
      expect(result.json().code).toBe('invalid_credentials');
    }
    // A member keeps an old password the rules no longer allow, and the tenant's higher minimum does not matter.
    await server.db
      .update(members)
      .set({ passwordHash: await hashPassword('short') })
      .where(eq(members.email, 'grower@demo.test'));
    await server.db.update(tenants).set({ passwordMinLength: 20 }).where(eq(tenants.subdomain, 'demo'));
    try {
      expect((await attempt('192.0.2.91', { email: 'grower@demo.test', password: 'short' })).statusCode).toBe(200);
      expect((await attempt('192.0.2.91', DEMO_MEMBER)).statusCode).toBe(200);
    } finally {
      await server.db.update(tenants).set({ passwordMinLength: 8 }).where(eq(tenants.subdomain, 'demo'));
    }
  });
});

describe('POST /auth/sign-out/', () => {
  it('revokes the refresh token and clears the cookie', async () => {
    const { refresh_token } = await api.signIn(DEMO_MEMBER);
    const out = await api.call('/auth/sign-out/', { method: 'POST', body: { refresh_token }, headers: { 'x-client-kind': 'desktop' } });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect(refreshCookie(out.headers)).toMatch(/refresh_token=;/);
    const after = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token }, headers: { 'x-client-kind': 'desktop' } });
    expect(after.status).toBe(401);
  });
});

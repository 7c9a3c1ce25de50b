import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { members, refreshTokens, tenants } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/domains/auth/service';
import { type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

/**
 * The tenant and member caches (AUTH_CACHE_TTL_SECONDS, at its maximum here). Rows are changed
 * straight in the database, as another server process or the admin CLI would; the server's clock
 * (Date only) is frozen and moved by hand, so "within the window" does not depend on machine speed.
 */
const CACHE_TTL_SECONDS = 5;
const PASSWORD = 'Password!123';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let clock: number;

async function addMember(email: string, isAdmin = false, subdomain = 'demo') {
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, subdomain));
  await server.db
    .insert(members)
    .values({ tenantId: tenant!.id, email, name: 'cached', passwordHash: await hashPassword(PASSWORD), isAdmin, status: 'approved' });
  return api.signIn({ email, password: PASSWORD }, subdomain);
}

const setMember = (id: number, patch: Partial<typeof members.$inferInsert>) => server.db.update(members).set(patch).where(eq(members.id, id));
const afterCacheWindow = () => {
  clock += CACHE_TTL_SECONDS * 1000 + 1;
  vi.setSystemTime(clock);
};

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['other'], config: { AUTH_CACHE_TTL_SECONDS: CACHE_TTL_SECONDS } });
  api = apiClient(server);
});
afterAll(() => server?.close());
beforeEach(() => {
  clock = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('member cache', () => {
  it('refuses a member deactivated elsewhere once the cache window has passed', async () => {
    const { access_token, member } = await addMember('deactivated-elsewhere@demo.test');
    const profile = () => api.call(`/members/${member.id}/`, { token: access_token });
    expect((await profile()).status).toBe(200);

    await setMember(member.id, { status: 'deactivated' });
    // Within the window this process may still serve the row it read: that is the documented staleness.
    expect((await profile()).status).toBe(200);
    afterCacheWindow();
    const refused = await profile();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('account_deactivated');
  });

  it('takes an admin right away once the window has passed', async () => {
    const { access_token, member } = await addMember('demoted@demo.test', true);
    const adminPage = () => api.call('/admin/announcements/', { token: access_token });
    expect((await adminPage()).status).toBe(200);

    await setMember(member.id, { isAdmin: false });
    afterCacheWindow();
    expect((await adminPage()).status).toBe(403);
  });

  it('drops the cached member when this process sees the deactivation on refresh', async () => {
    const { access_token, refresh_token, member } = await addMember('refresh-sees-it@demo.test');
    expect((await api.call(`/members/${member.id}/`, { token: access_token })).status).toBe(200);

    await setMember(member.id, { status: 'deactivated' });
    const refresh = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token }, headers: { 'x-client-kind': 'desktop' } });
    expect(refresh.status).toBe(403);
    // Same clock: no window has passed, yet the access token is refused at once.
    expect((await api.call(`/members/${member.id}/`, { token: access_token })).status).toBe(403);
  });

  it('leaves sign-out and refresh-token revocation immediate', async () => {
    const { access_token, refresh_token, member } = await addMember('signs-out@demo.test');
    expect((await api.call(`/members/${member.id}/`, { token: access_token })).status).toBe(200);
    const desktop = { 'x-client-kind': 'desktop' };
    expect((await api.call('/auth/sign-out/', { method: 'POST', body: { refresh_token }, headers: desktop })).status).toBeLessThan(300);
    const refresh = await api.call('/auth/refresh/', { method: 'POST', body: { refresh_token }, headers: desktop });
    expect(refresh.status).toBe(401);
  });

  it('never serves a member cached for one tenant to a request of another', async () => {
    const { access_token, member } = await addMember('one-tenant@demo.test');
    expect((await api.call(`/members/${member.id}/`, { token: access_token })).status).toBe(200);
    expect((await api.call(`/members/${member.id}/`, { token: access_token, tenant: 'other' })).status).toBe(401);
  });
});

describe('tenant cache', () => {
  it('applies a tenant closed elsewhere to sign-in once the window has passed', async () => {
    await addMember('closing@other.test', false, 'other');
    await server.db.update(tenants).set({ planStatus: 'inactive' }).where(eq(tenants.subdomain, 'other'));
    afterCacheWindow();
    const result = await api.call('/auth/sign-in/', { method: 'POST', body: { email: 'closing@other.test', password: PASSWORD }, tenant: 'other' });
    expect(result.status).toBe(423);
    await server.db.update(tenants).set({ planStatus: 'active' }).where(eq(tenants.subdomain, 'other'));
  });

  it('shows an admin’s own branding and sign-up changes at once on the process that made them', async () => {
    const { access_token } = await addMember('brand-admin@demo.test', true);
    expect((await api.call('/tenants/')).status).toBe(200); // the row is now cached
    const saved = await api.call('/admin/tenant-settings/', { method: 'PATCH', token: access_token, body: { manual_url: 'https://manual.example/now' } });
    expect(saved.status).toBe(200);
    // No waiting for the cache window: this process dropped its copy with the write.
    expect((await api.call('/tenants/')).body.manual_url).toBe('https://manual.example/now');
    const before = (await api.call('/tenants/sign-up-settings/')).body.approval;
    const next = before === 'auto' ? 'admin' : 'auto';
    expect((await api.call('/admin/sign-up-settings/', { method: 'PATCH', token: access_token, body: { approval: next } })).status).toBe(200);
    expect((await api.call('/tenants/sign-up-settings/')).body.approval).toBe(next);
    await api.call('/admin/sign-up-settings/', { method: 'PATCH', token: access_token, body: { approval: before } });
    await api.call('/admin/tenant-settings/', { method: 'PATCH', token: access_token, body: { manual_url: null } });
  });
});

describe('session revocation cache (issue 20)', () => {
  const chatbots = (token: string) => api.call('/chatbots/', { token });

  it('refuses a session revoked by another process (or the admin CLI) once the cache window has passed, at the latest', async () => {
    const { access_token, member } = await addMember('revoked-elsewhere@demo.test');
    expect((await chatbots(access_token)).status).toBe(200);
    // As another process's sign-out does it: the family's refresh tokens revoked in the shared database.
    await server.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.memberId, member.id));
    // Within the window this process may still serve what it read: at most AUTH_CACHE_TTL_SECONDS (5).
    expect((await chatbots(access_token)).status).toBe(200);
    afterCacheWindow();
    const refused = await chatbots(access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('session_expired');
  });

  it('refuses a session signed out on this process at once, cache or not', async () => {
    const session = await addMember('signed-out-here@demo.test');
    expect((await chatbots(session.access_token)).status).toBe(200);
    const out = await api.call('/auth/sign-out/', { method: 'POST', body: { refresh_token: session.refresh_token }, headers: { 'x-client-kind': 'desktop' } });
    expect(out.status).toBe(200);
    expect((await chatbots(session.access_token)).status).toBe(401);
  });
});

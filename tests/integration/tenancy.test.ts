import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['acme'] });
  api = apiClient(server);
});
afterAll(() => server?.close());

describe('tenant resolution', () => {
  it('takes the tenant from x-subdomain, else the subdomain cookie, else the default', async () => {
    expect((await api.call('/tenants/')).body.subdomain).toBe('demo');
    expect((await api.call('/tenants/', { tenant: 'acme' })).body.subdomain).toBe('acme');
    expect((await api.call('/tenants/', { headers: { cookie: 'subdomain=acme' } })).body.subdomain).toBe('acme');
  });

  it('answers 404 for an unknown tenant', async () => {
    const result = await api.call('/tenants/', { tenant: 'nowhere' });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('not_found');
  });

  it('does not accept one tenant’s access token in another', async () => {
    const demo = await api.signIn(DEMO_MEMBER);
    const result = await api.call(`/members/${demo.member.id}/`, { token: demo.access_token, tenant: 'acme' });
    expect(result.status).toBe(401);
  });
});

describe('isolation between two tenants', () => {
  it('answers 404 for another tenant’s session, chatbot and announcement ids', async () => {
    const demoAdmin = await api.signIn(DEMO_ADMIN);
    const acmeAdmin = await api.signIn(DEMO_ADMIN, 'acme');
    expect(acmeAdmin.member.id).not.toBe(demoAdmin.member.id);

    const demoBot = (await api.call('/chatbots/?include_default=true', { token: demoAdmin.access_token })).body.items[0];
    const response = await fetch(`${server.apiBase}/chatbots/${demoBot.id}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': demoAdmin.access_token },
      body: JSON.stringify({ text: 'demo-only secret' }),
    });
    const { session_hash_id } = JSON.parse(response.headers.get('x-chat-meta')!);
    await readFrames(response);
    const demoAnnouncement = (await api.call('/admin/announcements/', { token: demoAdmin.access_token })).body.items[0];

    const as = { token: acmeAdmin.access_token, tenant: 'acme' };
    expect((await api.call(`/sessions/${session_hash_id}/`, as)).status).toBe(404);
    expect((await api.call(`/sessions/${session_hash_id}/history/`, as)).status).toBe(404);
    expect((await api.call(`/sessions/${session_hash_id}/`, { ...as, method: 'PATCH', body: { title: 'taken' } })).status).toBe(404);
    expect((await api.call(`/sessions/${session_hash_id}/`, { ...as, method: 'DELETE' })).status).toBe(404);
    expect((await api.call(`/chatbots/${demoBot.id}/`, as)).status).toBe(404);
    const foreignChat = await api.call(`/chatbots/${demoBot.id}/chat/`, { ...as, method: 'POST', body: { text: 'hi' } });
    expect(foreignChat.status).toBe(404);
    expect((await api.call(`/admin/announcements/${demoAnnouncement.id}/`, { ...as, method: 'PATCH', body: { is_active: true } })).status).toBe(404);
    expect((await api.call(`/admin/announcements/${demoAnnouncement.id}/`, { ...as, method: 'DELETE' })).status).toBe(404);
    expect((await api.call(`/members/${demoAdmin.member.id}/`, as)).status).toBe(404);

    // Lists only ever show the caller's tenant.
    const acmeSessions = await api.call('/sessions/', as);
    expect(acmeSessions.body.total_items).toBe(0);
    const acmeBots = await api.call('/chatbots/?include_default=true', as);
    expect(acmeBots.body.items.map((bot: { id: number }) => bot.id)).not.toContain(demoBot.id);
    // The demo session is untouched.
    expect((await api.call(`/sessions/${session_hash_id}/`, { token: demoAdmin.access_token })).body.title).toBeNull();
  });

  it('activating an announcement in one tenant leaves the other tenant’s active one alone', async () => {
    const acmeAdmin = await api.signIn(DEMO_ADMIN, 'acme');
    const demoActive = (await api.call('/announcements/active/')).body.announcement;
    await api.call('/admin/announcements/', { method: 'POST', token: acmeAdmin.access_token, tenant: 'acme', body: { content: 'Acme news' } });
    expect((await api.call('/announcements/active/')).body.announcement.id).toBe(demoActive.id);
    expect((await api.call('/announcements/active/', { tenant: 'acme' })).body.announcement.content).toBe('Acme news');
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { restrictedWords, sessionMessages, tenants } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let adminToken: string;
let memberToken: string;
let otherAdminToken: string;
let chatbotId: number;

const add = (word: string, token = adminToken) => api.call('/admin/restricted-words/', { method: 'POST', token, body: { word } });
const list = (query = '', token = adminToken) => api.call(`/admin/restricted-words/${query}`, { token });

async function signInAll(target: TestServer) {
  const client = apiClient(target);
  const admin = (await client.signIn(DEMO_ADMIN)).access_token;
  const member = (await client.signIn(DEMO_MEMBER)).access_token;
  const bots = await client.call('/chatbots/?include_default=true', { token: member });
  return { client, admin, member, chatbotId: bots.body.items[0].id as number };
}

const sendAs = (target: TestServer, token: string, bot: number, text: string) =>
  fetch(`${target.apiBase}/chatbots/${bot}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify({ text }),
  });

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['other'] });
  const signedIn = await signInAll(server);
  api = signedIn.client;
  adminToken = signedIn.admin;
  memberToken = signedIn.member;
  chatbotId = signedIn.chatbotId;
  otherAdminToken = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
});
afterAll(() => server?.close());
beforeEach(() => server.db.delete(restrictedWords));

describe('admin restricted words', () => {
  it('adds words, lists them newest first with pagination and search', async () => {
    for (const word of ['alpha secret', 'beta', 'Gamma Secret']) expect((await add(word)).status).toBe(200);
    const all = await list('?page=1&size=2');
    expect(all.body).toMatchObject({ total_items: 3, total_pages: 2, page: 1, page_size: 2 });
    expect(all.body.items.map((item: { word: string }) => item.word)).toEqual(['Gamma Secret', 'beta']);
    const found = await list('?search_term=secret');
    expect(found.body.items.map((item: { word: string }) => item.word)).toEqual(['Gamma Secret', 'alpha secret']);
    // LIKE wildcards in the search are plain characters.
    expect((await list('?search_term=%25')).body.total_items).toBe(0);
  });

  it('refuses a word that exists already, in any letter case (409), and a blank one (400)', async () => {
    const created = await add('  Falcon  ');
    expect(created.body).toMatchObject({ word: 'Falcon' });
    const duplicate = await add('falcon');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('conflict');
    expect((await add('   ')).status).toBe(400);
    expect((await list()).body.total_items).toBe(1);
  });

  it('deletes a word; an unknown id or another tenant’s word is 404', async () => {
    const created = await add('remove me');
    expect((await api.call(`/admin/restricted-words/${created.body.id}/`, { method: 'DELETE', token: otherAdminToken, tenant: 'other' })).status).toBe(404);
    expect((await api.call(`/admin/restricted-words/${created.body.id}/`, { method: 'DELETE', token: adminToken })).body).toEqual({ ok: true });
    expect((await api.call(`/admin/restricted-words/${created.body.id}/`, { method: 'DELETE', token: adminToken })).status).toBe(404);
  });

  it('keeps tenants apart', async () => {
    await add('demo only');
    expect((await api.call('/admin/restricted-words/', { token: otherAdminToken, tenant: 'other' })).body.total_items).toBe(0);
  });

  it('is refused to members (403) and anonymous callers (401)', async () => {
    expect((await list('', memberToken)).status).toBe(403);
    expect((await add('x', memberToken)).status).toBe(403);
    expect((await api.call('/admin/restricted-words/1/', { method: 'DELETE', token: memberToken })).status).toBe(403);
    expect((await api.call('/admin/restricted-words/')).status).toBe(401);
  });
});

describe('chat input with a restricted word', () => {
  it('is refused with 422 restricted_term at once after the admin adds it, and sends again once it is deleted', async () => {
    const before = (await server.db.select().from(sessionMessages)).length;
    const created = await add('Project Falcon');
    const refused = await sendAs(server, memberToken, chatbotId, 'Tell me about project falcon');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'restricted_term', details: { terms: ['Project Falcon'] } });
    expect((await server.db.select().from(sessionMessages)).length).toBe(before);

    await api.call(`/admin/restricted-words/${created.body.id}/`, { method: 'DELETE', token: adminToken });
    const allowed = await sendAs(server, memberToken, chatbotId, 'Tell me about project falcon');
    expect(allowed.status).toBe(200);
    await allowed.text();
  });
});

describe('the per-process cache of the rules', () => {
  const TTL_SECONDS = 5;
  let cached: TestServer;
  let token: string;
  let admin: string;
  let bot: number;
  let clock: number;

  beforeAll(async () => {
    cached = await startTestServer({ config: { AUTH_CACHE_TTL_SECONDS: TTL_SECONDS } });
    const signedIn = await signInAll(cached);
    token = signedIn.member;
    admin = signedIn.admin;
    bot = signedIn.chatbotId;
  });
  afterAll(() => cached?.close());
  beforeEach(() => {
    clock = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock);
  });
  afterEach(() => vi.useRealTimers());
  const status = async (text: string) => {
    const response = await sendAs(cached, token, bot, text);
    await response.text();
    return response.status;
  };

  it('serves sends from memory: a word added elsewhere (another process, SQL) counts once the window has passed', async () => {
    expect(await status('warm the cache with osprey')).toBe(200);
    const [tenant] = await cached.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    await cached.db.insert(restrictedWords).values({ tenantId: tenant!.id, word: 'osprey' });
    expect(await status('osprey again')).toBe(200);
    vi.setSystemTime(clock + TTL_SECONDS * 1000 + 1);
    expect(await status('osprey again')).toBe(422);
  });

  it('takes this process’s own admin changes at once', async () => {
    expect(await status('warm the cache with kestrel')).toBe(200);
    const client = apiClient(cached);
    const added = await client.call('/admin/restricted-words/', { method: 'POST', token: admin, body: { word: 'kestrel' } });
    expect(await status('kestrel again')).toBe(422);
    await client.call(`/admin/restricted-words/${added.body.id}/`, { method: 'DELETE', token: admin });
    expect(await status('kestrel again')).toBe(200);
    await client.call('/admin/pii-settings/', { method: 'PATCH', token: admin, body: { email: 'block' } });
    expect(await status('kestrel@example.com')).toBe(428);
  });
});

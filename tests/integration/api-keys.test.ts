import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, chatbots } from '../../src/server/db/schema';
import { API_KEY_PREFIX } from '../../src/shared/domain/apiKeys';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let memberToken: string;
let adminToken: string;
let acmeAdminToken: string;
let general: number;
let quick: number;
let adminPrivateChatbot: number;

const create = (body: unknown, token = memberToken) => api.call('/apikeys/', { method: 'POST', token, body });
const list = (query = '', token = memberToken) => api.call(`/apikeys/${query}`, { token });
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['acme'] });
  api = apiClient(server);
  const member = await api.signIn(DEMO_MEMBER);
  memberToken = member.access_token;
  const admin = await api.signIn(DEMO_ADMIN);
  adminToken = admin.access_token;
  acmeAdminToken = (await api.signIn(DEMO_ADMIN, 'acme')).access_token;
  const visible = await api.call('/chatbots/?include_default=true', { token: memberToken });
  const byName = (name: string) => visible.body.items.find((bot: { en_name: string }) => bot.en_name === name);
  general = byName('General Assistant').id;
  quick = byName('Quick Helper').id;
  // A draft of the admin's own: the member cannot see it.
  const [generalRow] = await server.db.select().from(chatbots).where(eq(chatbots.id, general));
  const [draft] = await server.db
    .insert(chatbots)
    .values({
      tenantId: generalRow!.tenantId,
      hashId: 'adminprivatedraft1',
      enName: 'Admin draft',
      llmModelId: generalRow!.llmModelId,
      creatorId: admin.member.id,
    })
    .returning();
  adminPrivateChatbot = draft!.id;
});
afterAll(() => server?.close());

describe('POST /apikeys/', () => {
  it('shows the key once, stores only its SHA-256 and a visible prefix', async () => {
    const created = await create({ name: 'CI bot', chatbot_ids: [general, quick], expires_at: inOneDay() });
    expect(created.status).toBe(200);
    const key: string = created.body.key;
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    // 32 random bytes in base64url after the prefix.
    expect(key.length).toBe(API_KEY_PREFIX.length + 43);
    expect(created.body).toMatchObject({
      name: 'CI bot',
      status: 'active',
      last_used_at: null,
      revoked_at: null,
      requests_this_month: 0,
      credits_this_month: 0,
    });
    expect(created.body.key_prefix).toBe(key.slice(0, API_KEY_PREFIX.length + 6));
    expect(created.body.chatbots.map((bot: { id: number }) => bot.id).sort()).toEqual([general, quick].sort());

    const [row] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
    expect(row!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key.slice(API_KEY_PREFIX.length + 6));

    // The list never carries it again.
    const listed = await list();
    const item = listed.body.items.find((k: { id: number }) => k.id === created.body.id);
    expect(item).toBeDefined();
    expect(item.key).toBeUndefined();
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it('every key is different', async () => {
    const a = await create({ name: 'A', chatbot_ids: [quick] });
    const b = await create({ name: 'B', chatbot_ids: [quick] });
    expect(a.body.key).not.toBe(b.body.key);
    expect(a.body.expires_at).toBeNull();
  });

  it('refuses chatbots the member cannot see (404), no chatbots, a past expiry and a bad name (400)', async () => {
    expect((await create({ name: 'X', chatbot_ids: [adminPrivateChatbot] })).status).toBe(404);
    expect((await create({ name: 'X', chatbot_ids: [general, 999_999] })).status).toBe(404);
    expect((await create({ name: 'X', chatbot_ids: [] })).status).toBe(400);
    expect((await create({ name: '  ', chatbot_ids: [general] })).status).toBe(400);
    expect((await create({ name: 'X', chatbot_ids: [general], expires_at: '2001-01-01T00:00:00Z' })).status).toBe(400);
    expect((await create({ name: 'X', chatbot_ids: [general], expires_at: 'tomorrow' })).status).toBe(400);
    // The admin can see their own draft.
    expect((await create({ name: 'Admin key', chatbot_ids: [adminPrivateChatbot] }, adminToken)).status).toBe(200);
  });

  it('needs a signed-in member (401)', async () => {
    expect((await api.call('/apikeys/', { method: 'POST', body: { name: 'X', chatbot_ids: [general] } })).status).toBe(401);
    expect((await api.call('/apikeys/')).status).toBe(401);
  });
});

describe('GET /apikeys/', () => {
  it('lists only the member’s own keys, newest first, paginated, searchable and filtered by status', async () => {
    const own = await list('?size=100');
    expect(own.status).toBe(200);
    expect(own.body.items.length).toBeGreaterThanOrEqual(3);
    expect(own.body.items.map((k: { name: string }) => k.name)).not.toContain('Admin key');
    const ids = own.body.items.map((k: { id: number }) => k.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

    const page = await list('?size=1&page=2');
    expect(page.body).toMatchObject({ page: 2, page_size: 1, total_items: own.body.total_items });
    expect(page.body.items).toHaveLength(1);

    const searched = await list('?search_term=ci%20b');
    expect(searched.body.items.map((k: { name: string }) => k.name)).toEqual(['CI bot']);
    const byPrefix = await list(`?search_term=${own.body.items[0].key_prefix}`);
    expect(byPrefix.body.items.map((k: { id: number }) => k.id)).toEqual([own.body.items[0].id]);

    const revoked = await create({ name: 'Soon revoked', chatbot_ids: [quick] });
    await api.call(`/apikeys/${revoked.body.id}/`, { method: 'DELETE', token: memberToken });
    const expired = await create({ name: 'Expired', chatbot_ids: [quick] });
    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.body.id));

    const inactive = (await list('?status=revoked&size=100')).body.items.map((k: { name: string; status: string }) => `${k.name}:${k.status}`);
    expect(inactive.sort()).toEqual(['Expired:expired', 'Soon revoked:revoked']);
    const active = (await list('?status=active&size=100')).body.items;
    expect(active.every((k: { status: string }) => k.status === 'active')).toBe(true);
    expect(active.length + inactive.length).toBe((await list('?size=100')).body.total_items);
    expect((await list('?status=other')).status).toBe(400);
  });
});

describe('PATCH and DELETE /apikeys/{id}/', () => {
  it('renames, changes chatbots and expiry; a revoked key cannot be changed (409) but stays listed', async () => {
    const created = await create({ name: 'Old', chatbot_ids: [quick] });
    const path = `/apikeys/${created.body.id}/`;
    const expiry = inOneDay();
    const updated = await api.call(path, { method: 'PATCH', token: memberToken, body: { name: 'New', chatbot_ids: [general], expires_at: expiry } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'New', expires_at: expiry, status: 'active' });
    expect(updated.body.chatbots.map((bot: { id: number }) => bot.id)).toEqual([general]);
    expect(updated.body.key).toBeUndefined();
    expect((await api.call(path, { method: 'PATCH', token: memberToken, body: { expires_at: null } })).body.expires_at).toBeNull();
    expect((await api.call(path, { method: 'PATCH', token: memberToken, body: { chatbot_ids: [adminPrivateChatbot] } })).status).toBe(404);
    expect((await api.call(path, { method: 'PATCH', token: memberToken, body: { key_hash: 'x' } })).status).toBe(400);

    const revoked = await api.call(path, { method: 'DELETE', token: memberToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect(revoked.body.revoked_at).not.toBeNull();
    // Revoking again changes nothing.
    expect((await api.call(path, { method: 'DELETE', token: memberToken })).body.revoked_at).toBe(revoked.body.revoked_at);
    expect((await api.call(path, { method: 'PATCH', token: memberToken, body: { name: 'Again' } })).status).toBe(409);
  });

  it('an expired key stays expired: moving or removing its expiry answers 422 api_key_expired and the key keeps failing (issue 20)', async () => {
    const created = await create({ name: 'Lapsed', chatbot_ids: [quick], expires_at: inOneDay() });
    const path = `/apikeys/${created.body.id}/`;
    const bearer = { authorization: `Bearer ${created.body.key}` };
    expect((await api.call('/openai/models', { headers: bearer })).status).toBe(200);
    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, created.body.id));
    for (const expires_at of [null, inOneDay()]) {
      const revived = await api.call(path, { method: 'PATCH', token: memberToken, body: { expires_at } });
      expect(revived.status, String(expires_at)).toBe(422);
      expect(revived.body.code).toBe('api_key_expired');
    }
    expect((await api.call('/openai/models', { headers: bearer })).status).toBe(401);
    const [row] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
    expect(row!.expiresAt!.getTime()).toBeLessThan(Date.now());
    // Its name may still change (nothing to gain), and it stays listed as expired.
    const renamed = await api.call(path, { method: 'PATCH', token: memberToken, body: { name: 'Lapsed (old)' } });
    expect(renamed.body).toMatchObject({ name: 'Lapsed (old)', status: 'expired' });
  });

  it('another member’s key is 404 to the member, and so is another tenant’s', async () => {
    const adminKey = await create({ name: 'Admin own', chatbot_ids: [general] }, adminToken);
    const path = `/apikeys/${adminKey.body.id}/`;
    expect((await api.call(path, { method: 'PATCH', token: memberToken, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await api.call(path, { method: 'DELETE', token: memberToken })).status).toBe(404);
    const [row] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, adminKey.body.id));
    expect(row).toMatchObject({ name: 'Admin own', revokedAt: null });

    const acmeChatbots = await api.call('/chatbots/?include_default=true', { token: acmeAdminToken, tenant: 'acme' });
    const acmeKey = await api.call('/apikeys/', {
      method: 'POST',
      token: acmeAdminToken,
      tenant: 'acme',
      body: { name: 'Acme', chatbot_ids: [acmeChatbots.body.items[0].id] },
    });
    expect(acmeKey.status).toBe(200);
    // The demo admin knows an id of acme: still not found in demo.
    expect((await api.call(`/apikeys/${acmeKey.body.id}/`, { method: 'DELETE', token: adminToken })).status).toBe(404);
    // A chatbot of another tenant cannot be chosen either.
    expect((await create({ name: 'X', chatbot_ids: [acmeChatbots.body.items[0].id] })).status).toBe(404);
    expect((await list('?size=100', adminToken)).body.items.map((k: { name: string }) => k.name)).not.toContain('Acme');
  });
});

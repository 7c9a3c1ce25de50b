import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcements } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let adminToken: string;
let memberToken: string;

async function activeIds(): Promise<number[]> {
  const rows = await server.db.select({ id: announcements.id, isActive: announcements.isActive }).from(announcements);
  return rows.filter((row) => row.isActive).map((row) => row.id);
}

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
  adminToken = (await api.signIn(DEMO_ADMIN)).access_token;
  memberToken = (await api.signIn(DEMO_MEMBER)).access_token;
});
afterAll(() => server?.close());

describe('public announcements', () => {
  it('answer the active and the latest announcement without a token', async () => {
    const active = await api.call('/announcements/active/');
    const latest = await api.call('/announcements/latest/');
    expect(active.status).toBe(200);
    expect(active.body.announcement).toMatchObject({ is_active: true, content: expect.stringContaining('Writing Coach') });
    expect(latest.body.announcement.id).toBe(active.body.announcement.id);
  });
});

describe('admin announcements', () => {
  it('are refused to members (403) and to anonymous callers (401)', async () => {
    expect((await api.call('/admin/announcements/', { token: memberToken })).status).toBe(403);
    expect((await api.call('/admin/announcements/')).status).toBe(401);
    expect((await api.call('/admin/announcements/', { method: 'POST', token: memberToken, body: { content: 'x' } })).status).toBe(403);
  });

  it('creating an active one deactivates all others; an inactive one changes nothing', async () => {
    const before = await activeIds();
    expect(before).toHaveLength(1);
    const inactive = await api.call('/admin/announcements/', { method: 'POST', token: adminToken, body: { content: 'Draft', is_active: false } });
    expect(inactive.status).toBe(200);
    expect(await activeIds()).toEqual(before);

    const created = await api.call('/admin/announcements/', { method: 'POST', token: adminToken, body: { content: '## Fresh news' } });
    expect(created.body).toMatchObject({ content: '## Fresh news', is_active: true });
    expect(await activeIds()).toEqual([created.body.id]);
    expect((await api.call('/announcements/active/')).body.announcement.id).toBe(created.body.id);
  });

  it('activating one deactivates the others; deactivating leaves none active', async () => {
    const list = await api.call('/admin/announcements/', { token: adminToken });
    const target = list.body.items.find((item: { is_active: boolean }) => !item.is_active);
    const activated = await api.call(`/admin/announcements/${target.id}/`, { method: 'PATCH', token: adminToken, body: { is_active: true } });
    expect(activated.body.is_active).toBe(true);
    expect(await activeIds()).toEqual([target.id]);

    await api.call(`/admin/announcements/${target.id}/`, { method: 'PATCH', token: adminToken, body: { is_active: false } });
    expect(await activeIds()).toEqual([]);
    expect((await api.call('/announcements/active/')).body.announcement).toBeNull();
  });

  it('edits the content without touching the active flags', async () => {
    const [first] = (await api.call('/admin/announcements/', { token: adminToken })).body.items;
    const edited = await api.call(`/admin/announcements/${first.id}/`, { method: 'PATCH', token: adminToken, body: { content: 'Edited **text**' } });
    expect(edited.body).toMatchObject({ id: first.id, content: 'Edited **text**', is_active: first.is_active });
    const mixed = await api.call(`/admin/announcements/${first.id}/`, { method: 'PATCH', token: adminToken, body: { content: 'x', is_active: true } });
    expect(mixed.status).toBe(400);
  });

  it('lists 5 per page, newest first, with the pagination fields', async () => {
    for (let i = 0; i < 3; i++)
      await api.call('/admin/announcements/', { method: 'POST', token: adminToken, body: { content: `Note ${i}`, is_active: false } });
    const page1 = await api.call('/admin/announcements/', { token: adminToken });
    expect(page1.body.page_size).toBe(5);
    expect(page1.body.items).toHaveLength(5);
    expect(page1.body.total_items).toBe(8);
    expect(page1.body.total_pages).toBe(2);
    expect(page1.body.items[0].content).toBe('Note 2');
    const created = page1.body.items.map((item: { created_at: string }) => Date.parse(item.created_at));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    const page2 = await api.call('/admin/announcements/?page=2', { token: adminToken });
    expect(page2.body.items).toHaveLength(3);
  });

  it('deletes one and answers 404 when it is gone', async () => {
    const [first] = (await api.call('/admin/announcements/', { token: adminToken })).body.items;
    expect((await api.call(`/admin/announcements/${first.id}/`, { method: 'DELETE', token: adminToken })).status).toBe(200);
    expect(await api.call(`/admin/announcements/${first.id}/`, { method: 'DELETE', token: adminToken })).toMatchObject({
      status: 404,
      body: { code: 'announcement_update_failed' },
    });
    expect((await api.call(`/admin/announcements/${first.id}/`, { method: 'PATCH', token: adminToken, body: { is_active: true } })).status).toBe(404);
  });
});

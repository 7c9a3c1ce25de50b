import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberGroups } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('Store and recent chatbots', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
  });
  afterAll(() => server?.close());

  /** A chatbot of the admin: public (approved), shared with a group, or private. */
  async function chatbot(name: string, access: 'public' | 'private' | { groupId: number }, token = admin, tenant?: string): Promise<number> {
    const { id } = (await client.call('/chatbots/', { method: 'POST', token, tenant })).body;
    await client.call(`/chatbots/${id}/`, { method: 'PATCH', token, tenant, body: { en_name: name, ko_name: name } });
    if (access === 'public') {
      await client.call(`/chatbots/${id}/access/`, { method: 'PATCH', token, tenant, body: { is_public: true, member_group_ids: [] } });
      await client.call(`/admin/chatbots/${id}/process-publish-request/`, { method: 'POST', token, tenant, body: { approve: true } });
    } else if (access !== 'private') {
      await client.call(`/chatbots/${id}/access/`, { method: 'PATCH', token, tenant, body: { is_public: false, member_group_ids: [access.groupId] } });
    }
    return id;
  }
  const names = async (query: string, token = member) =>
    (await client.call(`/chatbots/${query}`, { token })).body.items.map((row: { en_name: string }) => row.en_name);
  const remember = (id: number, token = member) => client.call(`/chatbots/${id}/relations/`, { method: 'POST', token });

  it('lists public chatbots only to members of the tenant, by category, search and popularity; private and foreign ones stay out', async () => {
    const [research] = await server.db
      .insert(memberGroups)
      .values({
        tenantId: (await server.db.select({ tenantId: memberGroups.tenantId }).from(memberGroups).limit(1))[0]!.tenantId,
        koName: '연구',
        enName: 'Research',
      })
      .returning();
    await chatbot('Public Poet', 'public');
    await chatbot('Secret Diary', 'private');
    const shared = await chatbot('Research Bot', { groupId: research!.id });
    const foreign = await chatbot('Acme Public', 'public', acmeAdmin, 'acme');

    const store = await names('?is_public=true&size=100');
    expect(store).toContain('Public Poet');
    expect(store).not.toContain('Secret Diary');
    expect(store).not.toContain('Research Bot');
    expect(store).not.toContain('Acme Public');
    expect(await names('?is_public=true&search_term=poet')).toEqual(['Public Poet']);
    // Shared with a group the member is not in: not visible by id either.
    expect((await client.call(`/chatbots/${shared}/`, { token: member })).status).toBe(404);
    expect((await client.call(`/chatbots/${foreign}/`, { token: member })).status).toBe(404);
    expect((await remember(shared)).status).toBe(404);
    expect((await remember(foreign)).status).toBe(404);
  });

  it('keeps the three most recently used non-default chatbots, newest first, and forgets one on request', async () => {
    const ids = [];
    for (const name of ['Recent A', 'Recent B', 'Recent C', 'Recent D']) {
      const id = await chatbot(name, 'public');
      ids.push(id);
      expect((await remember(id)).status).toBe(200);
    }
    expect(await names('?recent=true')).toEqual(['Recent D', 'Recent C', 'Recent B']);
    await remember(ids[1]!);
    expect(await names('?recent=true')).toEqual(['Recent B', 'Recent D', 'Recent C']);
    expect((await client.call(`/chatbots/${ids[3]}/relations/`, { method: 'DELETE', token: member })).status).toBe(200);
    expect(await names('?recent=true')).toEqual(['Recent B', 'Recent C']);

    // A default chatbot is never a recent one.
    const defaults = (await client.call('/chatbots/?include_default=true', { token: member })).body.items.filter(
      (row: { is_default: boolean }) => row.is_default,
    );
    await remember(defaults[0].id);
    expect(await names('?recent=true')).toEqual(['Recent B', 'Recent C']);

    // Made private by its author: gone from the member's recents at once.
    await client.call(`/chatbots/${ids[1]}/access/`, { method: 'PATCH', token: admin, body: { is_public: false, member_group_ids: [] } });
    expect(await names('?recent=true')).toEqual(['Recent C']);
  });

  it('orders the Store by popularity (messages) or by newest', async () => {
    const quiet = await chatbot('Quiet One', 'public');
    const busy = await chatbot('Busy One', 'public');
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${server.apiBase}/chatbots/${busy}/chat/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': member },
        body: JSON.stringify({ text: `Hello ${i}` }),
      });
      await response.text();
    }
    const popular = await names('?is_public=true&order_by=popular&size=100');
    expect(popular.indexOf('Busy One')).toBeLessThan(popular.indexOf('Quiet One'));
    const newest = await names('?is_public=true&order_by=created_at.desc&size=100');
    expect(newest.indexOf('Busy One')).toBeLessThan(newest.indexOf('Quiet One'));
    expect(quiet).toBeGreaterThan(0);
  });
});

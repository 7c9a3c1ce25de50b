import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberGroups, tenants } from '../../src/server/db/schema';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
  ({ access_token: token } = await api.signIn(DEMO_MEMBER));
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  const [other] = await server.db.insert(tenants).values({ subdomain: 'other-groups', name: 'Other' }).returning();
  await server.db.insert(memberGroups).values([
    { tenantId: tenant!.id, koName: '연구팀', enName: 'Research' },
    { tenantId: other!.id, koName: '남의 팀', enName: 'Elsewhere' },
  ]);
});
afterAll(() => server?.close());

describe('GET /member-groups/', () => {
  it("lists the member's tenant groups, default first, and nothing of another tenant", async () => {
    const result = await api.call('/member-groups/', { token });
    expect(result.status).toBe(200);
    expect(result.body.items.map((group: { en_name: string }) => group.en_name)).toEqual(['Default group', 'Research']);
    expect(result.body.items[0]).toMatchObject({ ko_name: '기본 그룹', is_default: true, id: expect.any(Number) });
    expect(result.body.total_items).toBe(2);
  });

  it('filters by search term and default flag, and answers signed-out visitors of the sign-up form too', async () => {
    const search = await api.call(`/member-groups/?search_term=${encodeURIComponent('연구')}`, { token });
    expect(search.body.items.map((group: { en_name: string }) => group.en_name)).toEqual(['Research']);
    const defaults = await api.call('/member-groups/?is_default=false', { token });
    expect(defaults.body.items.map((group: { en_name: string }) => group.en_name)).toEqual(['Research']);
    // Sign-up picks the default group before anyone is signed in: names of this tenant only.
    const anonymous = await api.call('/member-groups/');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.items.map((group: { en_name: string }) => group.en_name)).toEqual(['Default group', 'Research']);
  });

  it('orders by order_by (spec §7): by the shown name or by age, either way; an unknown order is 400', async () => {
    const names = async (order: string) =>
      (await api.call(`/member-groups/?order_by=${order}`, { token })).body.items.map((group: { en_name: string }) => group.en_name);
    expect(await names('name.asc')).toEqual(['Default group', 'Research']);
    expect(await names('name.desc')).toEqual(['Research', 'Default group']);
    expect(await names('created_at.desc')).toEqual(['Research', 'Default group']);
    expect(await names('created_at.asc')).toEqual(['Default group', 'Research']);
    expect((await api.call('/member-groups/?order_by=size.asc', { token })).status).toBe(400);
  });
});

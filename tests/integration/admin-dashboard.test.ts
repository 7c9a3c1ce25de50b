import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, members, usageRecords } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('admin dashboard', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  const month = new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    const [demo] = await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
    const at = new Date(`${month}-03T09:00:00Z`);
    const row = {
      tenantId: demo!.tenantId,
      memberId: demo!.id,
      memberGroupId: demo!.defaultMemberGroupId,
      modelName: 'gpt-test',
      inputTokens: 10,
      outputTokens: 10,
      createdAt: at,
    };
    await server.db.insert(usageRecords).values([
      { ...row, credits: 3 },
      { ...row, credits: 2 },
      // A web search is part of an answer, not a message of its own.
      { ...row, webSearchCount: 1, credits: 1, inputTokens: 0, outputTokens: 0 },
      { ...row, credits: 7, createdAt: new Date('2030-02-10T00:00:00Z') },
    ]);
    const made = [];
    for (let i = 0; i < 2; i++) made.push((await client.call('/chatbots/', { method: 'POST', token: member })).body.id as number);
    await server.db.update(chatbots).set({ isPublic: true }).where(eq(chatbots.id, made[0]!));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows the cards of this month', async () => {
    const { status, body } = await client.call('/admin/dashboards/', { token: admin });
    expect(status).toBe(200);
    expect(body).toMatchObject({ month, member_count: 2, monthly_active_users: 1, monthly_messages: 2, public_chatbot_count: 1, private_chatbot_count: 1 });
    const acme = (await client.call('/admin/dashboards/', { token: acmeAdmin, tenant: 'acme' })).body;
    expect(acme).toMatchObject({ monthly_messages: 0, public_chatbot_count: 0, private_chatbot_count: 0 });
    expect((await client.call('/admin/dashboards/', { token: member })).status).toBe(403);
    expect((await client.call('/admin/dashboards/')).status).toBe(401);
  });

  it('answers every month of a range for the charts', async () => {
    const { status, body } = await client.call('/admin/dashboards/usage/?start_month=2030-01&end_month=2030-03', { token: admin });
    expect(status).toBe(200);
    expect(body.months).toEqual([
      { month: '2030-01', active_users: 0, messages: 0, credits: 0, new_members: 0 },
      { month: '2030-02', active_users: 1, messages: 1, credits: 7, new_members: 0 },
      { month: '2030-03', active_users: 0, messages: 0, credits: 0, new_members: 0 },
    ]);
    const current = (await client.call(`/admin/dashboards/usage/?start_month=${month}&end_month=${month}`, { token: admin })).body.months;
    expect(current).toEqual([{ month, active_users: 1, messages: 2, credits: 6, new_members: 2 }]);
    expect((await client.call('/admin/dashboards/usage/?start_month=2030-03&end_month=2030-01', { token: admin })).status).toBe(422);
    expect((await client.call('/admin/dashboards/usage/?start_month=2020-01&end_month=2030-01', { token: admin })).status).toBe(422);
    expect((await client.call('/admin/dashboards/usage/?start_month=2030-1&end_month=2030-02', { token: admin })).status).toBe(400);
    expect((await client.call('/admin/dashboards/usage/?start_month=2030-01&end_month=2030-02', { token: member })).status).toBe(403);
  });
});

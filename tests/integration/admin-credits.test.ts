import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditBalances, memberGroupLinks, memberGroups, members, usageRecords } from '../../src/server/db/schema';
import { grantTenantCredits } from '../../src/server/domains/credits/service';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('admin credits', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  let tenantId: number;
  let defaultGroupId: number;
  let teamGroupId: number;
  let demoMember: typeof members.$inferSelect;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    [demoMember] = (await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email))) as [typeof members.$inferSelect];
    tenantId = demoMember.tenantId;
    defaultGroupId = demoMember.defaultMemberGroupId!;
    const [team] = await server.db
      .insert(memberGroups)
      .values({ tenantId, koName: '영업팀', enName: 'Sales', creditQuota: 1000, memberCreditQuota: 100 })
      .returning();
    teamGroupId = team!.id;
    const month = new Date().toISOString().slice(0, 7);
    const at = new Date(`${month}-02T10:00:00Z`);
    const row = { tenantId, memberId: demoMember.id, memberGroupId: defaultGroupId, modelName: 'gpt-test', createdAt: at };
    await server.db.insert(usageRecords).values([
      { ...row, inputTokens: 10_000, outputTokens: 5_000, credits: 30 },
      { ...row, inputTokens: 0, outputTokens: 0, webSearchCount: 1, credits: 4 },
      { ...row, modelName: 'image-model', inputTokens: 0, outputTokens: 0, imageCount: 2, credits: 80 },
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The acme admin's token is only good on acme's subdomain. */
  const tenantOf = (token: string) => (token === acmeAdmin ? 'acme' : undefined);
  const allocation = async (query = '', token = admin) => client.call(`/admin/credits/allocation/${query}`, { token, tenant: tenantOf(token) });
  const allocate = (body: unknown, token = admin) => client.call('/admin/credits/allocation/', { method: 'PUT', token, body, tenant: tenantOf(token) });

  it('shows every group with its quotas and a page of members', async () => {
    const { status, body } = await allocation();
    expect(status).toBe(200);
    expect(body.period).toMatch(/^\d{4}-\d{2}$/);
    expect(body.groups[0]).toMatchObject({ id: defaultGroupId, is_default: true, credit_quota: 50_000, member_credit_quota: 5_000 });
    expect(body.groups.find((g: { id: number }) => g.id === teamGroupId)).toMatchObject({
      en_name: 'Sales',
      credit_quota: 1000,
      member_credit_quota: 100,
      member_count: 0,
      used: 0,
    });
    const demo = body.members.items.find((m: { email: string }) => m.email === DEMO_MEMBER.email);
    expect(demo).toMatchObject({ credit_quota: null, effective_quota: 5_000, member_group_id: defaultGroupId });
    expect(body.members.page_size).toBe(10);
    const searched = (await allocation('?search_term=member')).body.members.items;
    expect(searched.map((m: { email: string }) => m.email)).toContain(DEMO_MEMBER.email);
    expect((await allocation(`?group_id=${teamGroupId}`)).body.members.total_items).toBe(0);
  });

  it("counts a group's members and its credits used exactly as the groups screen does", async () => {
    // A pending sign-up whose default group is Sales, not linked to it yet, and the demo member with Sales as an additional group.
    const [pending] = await server.db
      .insert(members)
      .values({ tenantId, email: `pending-${Date.now()}@example.test`, name: 'Pending', status: 'pending', defaultMemberGroupId: teamGroupId })
      .returning();
    await server.db.insert(memberGroupLinks).values({ tenantId, memberId: demoMember.id, memberGroupId: teamGroupId });
    const period = new Date().toISOString().slice(0, 7);
    await server.db.insert(creditBalances).values({ tenantId, scopeKind: 'group', scopeId: teamGroupId, period, usageSum: -4.51 });
    try {
      const groupsScreen = (await client.call('/admin/member-groups/?size=100', { token: admin })).body.items.find((g: { id: number }) => g.id === teamGroupId);
      const usageColumn = (await client.call('/admin/member-groups/usage/', { token: admin })).body.items.find((g: { id: number }) => g.id === teamGroupId);
      const creditsScreen = (await allocation()).body.groups.find((g: { id: number }) => g.id === teamGroupId);
      expect(groupsScreen.member_count).toBe(1);
      expect(creditsScreen.member_count).toBe(groupsScreen.member_count);
      expect(usageColumn).toMatchObject({ used: 4.51, period: (await allocation()).body.period });
      expect(creditsScreen.used).toBe(usageColumn.used);
      // The credits screen's member list filtered by the group is the same members.
      const listed = (await allocation(`?group_id=${teamGroupId}`)).body.members;
      expect(listed.items.map((m: { email: string }) => m.email)).toEqual([DEMO_MEMBER.email]);
    } finally {
      await server.db.delete(creditBalances).where(and(eq(creditBalances.scopeKind, 'group'), eq(creditBalances.scopeId, teamGroupId)));
      await server.db.delete(memberGroupLinks).where(eq(memberGroupLinks.memberGroupId, teamGroupId));
      await server.db.delete(members).where(eq(members.id, pending!.id));
    }
  });

  it("sets group quotas and member overrides in one transaction, with an audit row each, and locks the default group's credit info", async () => {
    const done = await allocate({
      groups: [{ id: teamGroupId, credit_quota: 2000, member_credit_quota: 200 }],
      members: [{ id: demoMember.id, credit_quota: 750 }],
    });
    expect(done).toMatchObject({ status: 200, body: { updated: 2 } });
    const [team] = await server.db.select().from(memberGroups).where(eq(memberGroups.id, teamGroupId));
    expect(team).toMatchObject({ creditQuota: 2000, memberCreditQuota: 200 });
    const demo = (await allocation()).body.members.items.find((m: { email: string }) => m.email === DEMO_MEMBER.email);
    expect(demo).toMatchObject({ credit_quota: 750, effective_quota: 750 });
    const audits = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, 'credit.allocation')));
    expect(audits.map((row) => row.targetType).sort()).toEqual(['member', 'member_group']);
    expect(audits.find((row) => row.targetType === 'member')?.changes).toEqual({ creditQuota: { from: null, to: 750 } });

    // The default group's credit info is locked, and a refused change leaves the rest undone too.
    const locked = await allocate({ groups: [{ id: defaultGroupId, credit_quota: 1 }], members: [{ id: demoMember.id, credit_quota: null }] });
    expect(locked).toMatchObject({ status: 422, body: { code: 'default_group_locked' } });
    expect((await server.db.select().from(members).where(eq(members.id, demoMember.id)))[0]?.creditQuota).toBe(750);
    // The default group's unchanged values are not a change.
    expect((await allocate({ groups: [{ id: defaultGroupId, credit_quota: 50_000 }] })).body).toEqual({ updated: 0 });
    // Back to the group's quota.
    expect((await allocate({ members: [{ id: demoMember.id, credit_quota: null }] })).body).toEqual({ updated: 1 });
  });

  it('refuses bad input, members, and ids of another tenant', async () => {
    expect((await allocate({ groups: [], members: [] })).status).toBe(400);
    expect((await allocate({ members: [{ id: demoMember.id, credit_quota: -1 }] })).status).toBe(400);
    expect((await allocate({ members: [{ id: demoMember.id, credit_quota: 5 }] }, member)).status).toBe(403);
    expect((await allocation('', member)).status).toBe(403);
    expect((await allocate({ groups: [{ id: teamGroupId, credit_quota: 5 }] }, acmeAdmin)).status).toBe(404);
    expect((await allocate({ members: [{ id: demoMember.id, credit_quota: 5 }] }, acmeAdmin)).status).toBe(404);
    expect((await allocation()).body.members.items.find((m: { email: string }) => m.email === DEMO_MEMBER.email).credit_quota).toBeNull();
  });

  it('reports LLM and image usage of a month by group and by member', async () => {
    const byGroup = await client.call('/admin/credits/usage/', { token: admin });
    expect(byGroup.status).toBe(200);
    expect(byGroup.body.group_by).toBe('group');
    expect(byGroup.body.llm).toEqual([
      expect.objectContaining({
        key_id: defaultGroupId,
        en_name: 'Default group',
        model_name: 'gpt-test',
        messages: 1,
        input_tokens: 10_000,
        output_tokens: 5_000,
        web_search_count: 1,
        web_search_credits: 4,
      }),
    ]);
    const [llm] = byGroup.body.llm;
    expect(llm.input_credits + llm.output_credits).toBeCloseTo(30, 6);
    expect(byGroup.body.image).toEqual([
      { key_id: defaultGroupId, ko_name: '기본 그룹', en_name: 'Default group', model_name: 'image-model', count: 2, credits: 80 },
    ]);
    const byMember = (await client.call('/admin/credits/usage/?group_by=member', { token: admin })).body;
    expect(byMember.llm[0]).toMatchObject({ key_id: demoMember.id, ko_name: demoMember.name, en_name: DEMO_MEMBER.email });
    expect((await client.call('/admin/credits/usage/?month=2001-01', { token: admin })).body).toMatchObject({ month: '2001-01', llm: [], image: [] });
    expect((await client.call('/admin/credits/usage/?month=2001-13', { token: admin })).status).toBe(400);
    expect((await client.call('/admin/credits/usage/', { token: acmeAdmin, tenant: 'acme' })).body.llm).toEqual([]);
    expect((await client.call('/admin/credits/usage/', { token: member })).status).toBe(403);
  });

  it('lists the credit purchase history with amount, date, validity and transaction', async () => {
    await grantTenantCredits(server.db, tenantId, 3_000, {
      koName: '충전',
      enName: 'Top-up',
      usageStartDate: '2030-01-01',
      usageEndDate: '2030-12-31',
      transactionPrice: 30_000,
      transactionCurrency: 'KRW',
      receiptUrl: null,
    });
    const { status, body } = await client.call('/admin/credits/', { token: admin });
    expect(status).toBe(200);
    expect(body.items[0]).toMatchObject({
      quota: 3_000,
      usage_start_date: '2030-01-01',
      usage_end_date: '2030-12-31',
      transaction: { price: 30_000, currency: 'KRW' },
    });
    expect(body.page_size).toBe(10);
    const acmeList = (await client.call('/admin/credits/', { token: acmeAdmin, tenant: 'acme' })).body;
    expect(acmeList.items.every((entry: { en_name: string }) => entry.en_name !== 'Top-up')).toBe(true);
    expect((await client.call('/admin/credits/', { token: member })).status).toBe(403);
    expect((await client.call('/admin/credits/')).status).toBe(401);
  });
});

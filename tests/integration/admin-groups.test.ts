import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  creditBalances,
  llmModels,
  memberGroupLinks,
  memberGroupQueues,
  memberGroups,
  members,
  modelGroupPermissions,
} from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('admin member groups', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  let defaultGroupId: number;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    defaultGroupId = (await client.call('/admin/member-groups/', { token: admin })).body.items[0].id;
  });
  afterAll(() => server?.close());

  const create = (body: object, token = admin) => client.call('/admin/member-groups/', { method: 'POST', token, body });
  const patch = (id: number, body: object, token = admin, tenant?: string) =>
    client.call(`/admin/member-groups/${id}/`, { method: 'PATCH', token, body, tenant });
  const remove = (id: number, token = admin, tenant?: string) => client.call(`/admin/member-groups/${id}/`, { method: 'DELETE', token, tenant });
  const audits = async (action: string) => server.db.select().from(auditLog).where(eq(auditLog.action, action));
  // The demo accounts exist in both tenants: the demo tenant's is the default group's.
  const demoAccount = async (email: string) => {
    const [group] = await server.db.select().from(memberGroups).where(eq(memberGroups.id, defaultGroupId));
    return (
      await server.db
        .select()
        .from(members)
        .where(and(eq(members.email, email), eq(members.tenantId, group!.tenantId)))
    )[0]!;
  };
  const demoMember = () => demoAccount(DEMO_MEMBER.email);
  const linksOf = async (memberId: number) =>
    (await server.db.select({ id: memberGroupLinks.memberGroupId }).from(memberGroupLinks).where(eq(memberGroupLinks.memberId, memberId)))
      .map((row) => row.id)
      .sort();

  it('lists the default group first with its member count, quotas and usable models', async () => {
    const list = await client.call('/admin/member-groups/', { token: admin });
    expect(list.status).toBe(200);
    const [group] = list.body.items;
    expect(group).toMatchObject({ is_default: true, en_name: 'Default group', credit_quota: 50000, member_credit_quota: 5000 });
    expect(group.member_count).toBeGreaterThanOrEqual(2);
    expect(group.usable_models.map((m: { name: string }) => m.name).sort()).toEqual(['balanced-pro', 'deep-reasoner', 'swift-lite']);
  });

  it('creates a group with the default group’s model permissions, so its members can chat', async () => {
    const deep = (await server.db.select().from(llmModels).where(eq(llmModels.name, 'deep-reasoner')))[0]!;
    // The default group has deep-reasoner switched off: the new group starts the same way.
    await client.call(`/admin/llm-models/${deep.id}/member-groups/${defaultGroupId}/`, { method: 'PATCH', token: admin, body: { is_available: false } });
    const created = await create({ ko_name: '영업팀', en_name: 'Sales' });
    await client.call(`/admin/llm-models/${deep.id}/member-groups/${defaultGroupId}/`, { method: 'PATCH', token: admin, body: { is_available: true } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ko_name: '영업팀', en_name: 'Sales', is_default: false, member_count: 0, credit_quota: null });
    expect(created.body.usable_models.map((m: { name: string }) => m.name).sort()).toEqual(['balanced-pro', 'swift-lite']);
    const permissions = await server.db.select().from(modelGroupPermissions).where(eq(modelGroupPermissions.memberGroupId, created.body.id));
    expect(permissions.find((row) => row.llmModelId === deep.id)?.isAvailable).toBe(false);
    expect(await audits('member_group.create')).toEqual([
      expect.objectContaining({ targetId: String(created.body.id), actorEmail: DEMO_ADMIN.email, changes: { ko_name: '영업팀', en_name: 'Sales' } }),
    ]);
    expect((await client.call(`/admin/member-groups/${created.body.id}/`, { token: admin })).body).toEqual(created.body);
  });

  it('refuses a Korean or English name in use (409, any letter case) and invalid names (400)', async () => {
    expect(await create({ ko_name: '영업팀', en_name: 'Other' })).toMatchObject({
      status: 409,
      body: { code: 'group_name_taken', details: { field: 'ko_name' } },
    });
    expect(await create({ ko_name: '기타', en_name: 'sales' })).toMatchObject({
      status: 409,
      body: { code: 'group_name_taken', details: { field: 'en_name' } },
    });
    expect((await create({ ko_name: ' ', en_name: '' })).status).toBe(400);
    expect((await create({})).status).toBe(400);
    expect((await create({ ko_name: 'x'.repeat(101), en_name: 'X' })).status).toBe(400);
    // A lone surrogate is refused by the contract, not by the database.
    expect(await create({ ko_name: '\ud800', en_name: 'X' })).toMatchObject({ status: 400, body: { code: 'validation_error', details: expect.anything() } });
  });

  it('searches, renames and sets credit quotas, recording what changed', async () => {
    const sales = (await client.call('/admin/member-groups/?search_term=sal', { token: admin })).body.items;
    expect(sales).toHaveLength(1);
    const id = sales[0].id;
    const renamed = await patch(id, { en_name: 'Sales team', credit_quota: 5000, member_credit_quota: 100 });
    expect(renamed.body).toMatchObject({ en_name: 'Sales team', ko_name: '영업팀', credit_quota: 5000, member_credit_quota: 100 });
    expect(await audits('member_group.update')).toEqual([
      expect.objectContaining({
        targetId: String(id),
        changes: { en_name: { from: 'Sales', to: 'Sales team' }, credit_quota: { from: null, to: 5000 }, member_credit_quota: { from: null, to: 100 } },
      }),
    ]);
    // Its own name again is no clash.
    expect((await patch(id, { en_name: 'Sales team' })).status).toBe(200);
    expect(await patch(id, { en_name: 'Default group' })).toMatchObject({ status: 409, body: { code: 'group_name_taken' } });
    expect((await patch(id, { credit_quota: -1 })).status).toBe(400);
    expect((await patch(id, { unknown: 1 })).status).toBe(400);
  });

  it("keeps the default group's credit info and the group itself (422), but lets it be renamed", async () => {
    expect(await patch(defaultGroupId, { credit_quota: 10 })).toMatchObject({ status: 422, body: { code: 'default_group_locked' } });
    expect(await patch(defaultGroupId, { member_credit_quota: 10 })).toMatchObject({ status: 422, body: { code: 'default_group_locked' } });
    expect((await patch(defaultGroupId, { ko_name: '기본 그룹' })).body.ko_name).toBe('기본 그룹');
    expect(await remove(defaultGroupId)).toMatchObject({ status: 422, body: { code: 'default_group_locked' } });
  });

  it("lists a group's members and removes one; whose default group it was fall back to the tenant's", async () => {
    const { id } = (await create({ ko_name: '연구', en_name: 'Research' })).body;
    const demo = await demoMember();
    await server.db.update(members).set({ defaultMemberGroupId: id }).where(eq(members.id, demo.id));
    await server.db.insert(memberGroupLinks).values({ tenantId: demo.tenantId, memberId: demo.id, memberGroupId: id });
    const listed = await client.call(`/admin/member-groups/${id}/members/`, { token: admin });
    expect(listed.body).toMatchObject({ total_items: 1, items: [{ id: demo.id, email: DEMO_MEMBER.email, is_default_group: true }] });
    expect((await client.call(`/admin/member-groups/${id}/members/?search_term=nobody`, { token: admin })).body.total_items).toBe(0);

    expect((await client.call(`/admin/member-groups/${id}/members/${demo.id}/`, { method: 'DELETE', token: admin })).body).toEqual({ ok: true });
    expect((await demoMember()).defaultMemberGroupId).toBe(defaultGroupId);
    expect(await linksOf(demo.id)).toEqual([defaultGroupId]);
    expect((await client.call(`/admin/member-groups/${id}/members/${demo.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect(await audits('member_group.remove_member')).toEqual([
      expect.objectContaining({ targetId: String(id), changes: { member_id: demo.id, email: DEMO_MEMBER.email } }),
    ]);
    // Nobody leaves the default group while it is their default group.
    expect(await client.call(`/admin/member-groups/${defaultGroupId}/members/${demo.id}/`, { method: 'DELETE', token: admin })).toMatchObject({
      status: 422,
      body: { code: 'default_group_locked' },
    });
  });

  it('deletes a group: its members fall back to the default group, others lose it as an additional group, requests keep theirs', async () => {
    const { id } = (await create({ ko_name: '임시', en_name: 'Temporary' })).body;
    const demo = await demoMember();
    const adminRow = await demoAccount(DEMO_ADMIN.email);
    await server.db.update(members).set({ defaultMemberGroupId: id }).where(eq(members.id, demo.id));
    await server.db.insert(memberGroupLinks).values([
      { tenantId: demo.tenantId, memberId: demo.id, memberGroupId: id },
      { tenantId: demo.tenantId, memberId: adminRow.id, memberGroupId: id },
    ]);
    await server.db.delete(memberGroupLinks).where(and(eq(memberGroupLinks.memberId, demo.id), eq(memberGroupLinks.memberGroupId, defaultGroupId)));
    const [queued] = await server.db
      .insert(memberGroupQueues)
      .values({ tenantId: demo.tenantId, memberId: demo.id, requestType: 'group_update', defaultMemberGroupId: id, memberGroupIds: [id, defaultGroupId] })
      .returning();

    expect((await remove(id)).body).toEqual({ ok: true, moved_members: 1 });
    expect((await demoMember()).defaultMemberGroupId).toBe(defaultGroupId);
    expect(await linksOf(demo.id)).toEqual([defaultGroupId]);
    expect(await linksOf(adminRow.id)).toEqual([defaultGroupId]);
    const [request] = await server.db.select().from(memberGroupQueues).where(eq(memberGroupQueues.id, queued!.id));
    expect(request).toMatchObject({ defaultMemberGroupId: defaultGroupId, memberGroupIds: [defaultGroupId] });
    expect(await server.db.select().from(memberGroups).where(eq(memberGroups.id, id))).toEqual([]);
    expect(await audits('member_group.delete')).toEqual([
      expect.objectContaining({ targetId: String(id), changes: { ko_name: '임시', en_name: 'Temporary', moved_members: 1 } }),
    ]);
    expect((await remove(id)).status).toBe(404);
    expect((await client.call(`/admin/member-groups/${id}/`, { token: admin })).status).toBe(404);
  });

  it("reports each group's credit usage this month against its quota", async () => {
    const sales = (await client.call('/admin/member-groups/?search_term=sales', { token: admin })).body.items[0];
    await server.db
      .insert(creditBalances)
      .values({ tenantId: (await demoMember()).tenantId, scopeKind: 'group', scopeId: sales.id, period: sql`to_char(now(), 'YYYY-MM')`, usageSum: -1234.5 });
    // Last month's usage is not this month's.
    await server.db
      .insert(creditBalances)
      .values({ tenantId: (await demoMember()).tenantId, scopeKind: 'group', scopeId: defaultGroupId, period: '2000-01', usageSum: -99 });
    const usage = await client.call('/admin/member-groups/usage/', { token: admin });
    expect(usage.status).toBe(200);
    expect(usage.body.items[0]).toMatchObject({ id: defaultGroupId, used: 0, credit_quota: 50000 });
    expect(usage.body.items.find((row: { id: number }) => row.id === sales.id)).toMatchObject({
      used: 1234.5,
      credit_quota: 5000,
      period: expect.stringMatching(/^\d{4}-\d{2}$/),
    });
  });

  it("refuses members (403) and another tenant's group ids (404)", async () => {
    const sales = (await client.call('/admin/member-groups/?search_term=sales', { token: admin })).body.items[0];
    const demo = await demoMember();
    for (const [path, method] of [
      ['/admin/member-groups/', 'GET'],
      ['/admin/member-groups/usage/', 'GET'],
      [`/admin/member-groups/${sales.id}/`, 'GET'],
      [`/admin/member-groups/${sales.id}/`, 'DELETE'],
      [`/admin/member-groups/${sales.id}/members/`, 'GET'],
      [`/admin/member-groups/${sales.id}/members/${demo.id}/`, 'DELETE'],
    ] as const) {
      expect((await client.call(path, { method, token: member })).status).toBe(403);
    }
    expect((await create({ ko_name: 'a', en_name: 'b' }, member)).body).toMatchObject({ code: 'forbidden' });
    expect((await patch(sales.id, { en_name: 'x' }, member)).status).toBe(403);

    expect((await client.call(`/admin/member-groups/${sales.id}/`, { token: acmeAdmin, tenant: 'acme' })).status).toBe(404);
    expect((await patch(sales.id, { en_name: 'Stolen' }, acmeAdmin, 'acme')).status).toBe(404);
    expect((await remove(sales.id, acmeAdmin, 'acme')).status).toBe(404);
    expect((await client.call(`/admin/member-groups/${sales.id}/members/`, { token: acmeAdmin, tenant: 'acme' })).status).toBe(404);
    expect((await client.call(`/admin/member-groups/${sales.id}/members/${demo.id}/`, { method: 'DELETE', token: acmeAdmin, tenant: 'acme' })).status).toBe(
      404,
    );
    // Acme's list and usage hold only acme's group.
    expect((await client.call('/admin/member-groups/', { token: acmeAdmin, tenant: 'acme' })).body.total_items).toBe(1);
    expect((await client.call('/admin/member-groups/usage/', { token: acmeAdmin, tenant: 'acme' })).body.items).toHaveLength(1);
    expect((await client.call('/admin/member-groups/abc/', { token: admin })).status).toBe(400);
  });

  it('needs one of the two names, not both: each stays unique, a missing one is empty and never clashes', async () => {
    const koOnly = await create({ ko_name: '  연구소  ' });
    expect(koOnly).toMatchObject({ status: 200, body: { ko_name: '연구소', en_name: '' } });
    const enOnly = await create({ ko_name: '', en_name: 'Lab' });
    expect(enOnly).toMatchObject({ status: 200, body: { ko_name: '', en_name: 'Lab' } });
    // A second group without an English name is no clash; the Korean name still has to be free.
    const secondKoOnly = await create({ ko_name: '디자인' });
    expect(secondKoOnly).toMatchObject({ status: 200, body: { en_name: '' } });
    expect(await create({ ko_name: '연구소' })).toMatchObject({ status: 409, body: { details: { field: 'ko_name' } } });
    // Renaming away the only name is refused; giving it the other first is fine.
    expect(await patch(enOnly.body.id, { en_name: '' })).toMatchObject({ status: 422, body: { code: 'group_name_required' } });
    expect(await patch(enOnly.body.id, { ko_name: '실험실', en_name: '' })).toMatchObject({ status: 200, body: { ko_name: '실험실', en_name: '' } });
    // Sign-up's public list carries them too, sorted by the name shown in English (the Korean one when there is none).
    const names = (await client.call('/member-groups/?size=100')).body.items.map(
      (group: { ko_name: string; en_name: string }) => group.en_name || group.ko_name,
    );
    expect(names).toEqual(expect.arrayContaining(['연구소', '실험실', '디자인']));
    for (const group of [koOnly, enOnly, secondKoOnly]) expect((await remove(group.body.id)).status).toBe(200);
  });
});

/** My page's group-change request (spec §2): pending until an admin decides, withdrawable, own groups only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { memberGroups, members, tenants } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('group-change requests', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let token: string;
  let memberId: number;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    const session = await client.signIn(DEMO_MEMBER);
    token = session.access_token;
    memberId = session.member.id;
  });
  afterAll(() => server.close());

  it('shows the member’s groups, files a pending request, replaces it, and withdraws it', async () => {
    const before = await client.call(`/members/${memberId}/groups/`, { token });
    expect(before.status).toBe(200);
    expect(before.body.pending).toBeNull();
    expect(before.body.approval_required).toBe(true);
    expect(before.body.current.member_group_ids).toContain(before.body.current.default_member_group_id);
    const demoTenantId = (await server.db.select().from(memberGroups))[0]!.tenantId;
    const [extra] = await server.db.insert(memberGroups).values({ tenantId: demoTenantId, koName: '연구팀', enName: 'Research' }).returning();

    const choice = { default_member_group_id: extra!.id, member_group_ids: [extra!.id, before.body.current.default_member_group_id] };
    const requested = await client.call(`/members/${memberId}/group/`, { method: 'PATCH', token, body: choice });
    expect(requested.status).toBe(200);
    expect(requested.body.pending).toMatchObject({ default_member_group_id: extra!.id });
    // Nothing changes until an admin approves.
    expect(requested.body.current).toEqual(before.body.current);
    expect(requested.body.groups.map((group: { en_name: string }) => group.en_name)).toContain('Research');

    const replaced = await client.call(`/members/${memberId}/group/`, {
      method: 'PATCH',
      token,
      body: { default_member_group_id: extra!.id, member_group_ids: [extra!.id] },
    });
    expect(replaced.body.pending.member_group_ids).toEqual([extra!.id]);

    const withdrawn = await client.call(`/members/${memberId}/group-queues/`, { method: 'DELETE', token });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.pending).toBeNull();
  });

  it('refuses a default outside the chosen groups, another tenant’s group, and someone else’s request', async () => {
    const state = (await client.call(`/members/${memberId}/groups/`, { token })).body;
    const own = state.current.default_member_group_id;
    expect(
      (await client.call(`/members/${memberId}/group/`, { method: 'PATCH', token, body: { default_member_group_id: own, member_group_ids: [own + 1000] } }))
        .status,
    ).toBe(422);
    const acmeSession = await client.signIn(DEMO_MEMBER, 'acme');
    const acmeGroup = (await client.call(`/members/${acmeSession.member.id}/groups/`, { token: acmeSession.access_token, tenant: 'acme' })).body.current
      .default_member_group_id;
    expect(
      (
        await client.call(`/members/${memberId}/group/`, {
          method: 'PATCH',
          token,
          body: { default_member_group_id: acmeGroup, member_group_ids: [acmeGroup] },
        })
      ).status,
    ).toBe(422);
    const admin = await client.signIn(DEMO_ADMIN);
    expect(
      (
        await client.call(`/members/${memberId}/group/`, {
          method: 'PATCH',
          token: admin.access_token,
          body: { default_member_group_id: own, member_group_ids: [own] },
        })
      ).status,
    ).toBe(403);
    expect((await client.call(`/members/${admin.member.id}/groups/`, { token })).status).toBe(403);
    expect(
      (await client.call(`/members/${memberId}/group/`, { method: 'PATCH', token, body: { default_member_group_id: own, member_group_ids: [] } })).status,
    ).toBe(400);
  });

  it('applies the change at once when the tenant does not require approval', async () => {
    const admin = await client.signIn(DEMO_ADMIN);
    const off = await client.call('/admin/sign-up-settings/', { method: 'PATCH', token: admin.access_token, body: { group_change_approval: false } });
    expect(off.body.group_change_approval).toBe(false);
    try {
      const state = (await client.call(`/members/${memberId}/groups/`, { token })).body;
      expect(state.approval_required).toBe(false);
      const research = state.groups.find((group: { en_name: string }) => group.en_name === 'Research').id;
      const changed = await client.call(`/members/${memberId}/group/`, {
        method: 'PATCH',
        token,
        body: { default_member_group_id: research, member_group_ids: [research] },
      });
      expect(changed.body.pending).toBeNull();
      expect(changed.body.current).toEqual({ default_member_group_id: research, member_group_ids: [research] });
      const [row] = await server.db.select().from(members).where(eq(members.id, memberId));
      expect(row!.defaultMemberGroupId).toBe(research);
    } finally {
      await server.db.update(tenants).set({ groupChangeApproval: true });
    }
  });
});

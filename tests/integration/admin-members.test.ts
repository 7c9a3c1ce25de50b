import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  customFields,
  memberCustomFieldValues,
  memberGroupLinks,
  memberGroupQueues,
  memberGroups,
  members,
  plans,
  tenants,
} from '../../src/server/db/schema';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('admin members and pending requests', () => {
  let sink: SmtpSink;
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  let tenantId: number;
  let adminId: number;
  let memberId: number;
  let defaultGroup: number;
  let research: number;
  let sales: number;
  let department: number;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ extraTenants: ['acme'], config: { SMTP_URL: sink.url } });
    client = apiClient(server);
    const signedIn = await client.signIn(DEMO_ADMIN);
    admin = signedIn.access_token;
    adminId = signedIn.member.id;
    const signedMember = await client.signIn(DEMO_MEMBER);
    member = signedMember.access_token;
    memberId = signedMember.member.id;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    tenantId = demo!.id;
    defaultGroup = (
      await server.db
        .select()
        .from(memberGroups)
        .where(and(eq(memberGroups.tenantId, tenantId), eq(memberGroups.isDefault, true)))
    )[0]!.id;
    [research, sales] = (
      await server.db
        .insert(memberGroups)
        .values([
          { tenantId, koName: '연구', enName: 'Research' },
          { tenantId, koName: '영업', enName: 'Sales' },
        ])
        .returning()
    ).map((row) => row.id) as [number, number];
    department = (
      await server.db
        .select()
        .from(customFields)
        .where(and(eq(customFields.tenantId, tenantId), eq(customFields.enName, 'Department')))
    )[0]!.id;
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  /** Calls as the demo admin unless another token is given (acme's admin calls with its tenant). */
  const call = (path: string, options: { method?: string; body?: unknown; token?: string } = {}) =>
    client.call(path, { token: admin, ...options, tenant: options.token && options.token === acmeAdmin ? 'acme' : undefined });
  const list = async (query = '') => {
    const result = await call(`/admin/members/${query}`);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body;
  };
  const emails = (page: { items: { email: string }[] }) => page.items.map((row) => row.email);
  const auditRows = (action: string, targetId: number) =>
    server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))));

  /** A member inserted as the tests need them; a pending one gets its registration request. */
  async function addMember(email: string, values: Partial<typeof members.$inferInsert> = {}, asked: number[] = []): Promise<number> {
    const [row] = await server.db
      .insert(members)
      .values({ tenantId, email, name: email.split('@')[0]!, status: 'approved', defaultMemberGroupId: defaultGroup, ...values })
      .returning();
    if (row!.status === 'pending') {
      await server.db
        .insert(memberGroupQueues)
        .values({ tenantId, memberId: row!.id, requestType: 'registration', defaultMemberGroupId: defaultGroup, memberGroupIds: asked });
    } else {
      await server.db.insert(memberGroupLinks).values({ tenantId, memberId: row!.id, memberGroupId: defaultGroup });
    }
    return row!.id;
  }

  describe('GET /admin/members/', () => {
    it('pages (size 10 by default) and answers each member with groups, custom fields and SSO', async () => {
      const page = await list();
      expect(page).toMatchObject({ page: 1, page_size: 10 });
      expect(page.total_items).toBeGreaterThanOrEqual(2);
      const demoAdmin = page.items.find((row: { email: string }) => row.email === DEMO_ADMIN.email);
      expect(demoAdmin).toMatchObject({
        name: 'Demo Admin',
        is_admin: true,
        member_status: 'approved',
        member_type: 'organization',
        default_member_group_id: defaultGroup,
        member_groups: [{ id: defaultGroup, en_name: 'Default group', ko_name: '기본 그룹' }],
        credit_quota: null,
        sso_id: null,
      });
      expect(demoAdmin.custom_fields.map((field: { field_name: string }) => field.field_name)).toEqual(['Department', 'Employee number']);
    });

    it('searches name, email and searchable custom fields, and filters by group, status, admin, type and SSO', async () => {
      const nurse = await addMember('florence@example.test', { name: 'Florence Nightingale' });
      const coder = await addMember('ada@example.test', { name: 'Ada Lovelace', memberType: 'individual', ssoId: 'ada-sso' });
      await server.db.insert(memberCustomFieldValues).values({ tenantId, memberId: coder, customFieldId: department, value: 'Analytical Engines' });
      const secret = (await server.db.insert(customFields).values({ tenantId, enName: 'Badge', isSearchable: false }).returning())[0]!.id;
      await server.db.insert(memberCustomFieldValues).values({ tenantId, memberId: nurse, customFieldId: secret, value: 'Analytical lamp' });
      await server.db.insert(memberGroupLinks).values({ tenantId, memberId: nurse, memberGroupId: research });

      expect(emails(await list('?search_term=nightingale'))).toEqual(['florence@example.test']);
      expect(emails(await list('?search_term=ADA@EXAMPLE'))).toEqual(['ada@example.test']);
      // A searchable field's value is found; a field that is not searchable is not.
      expect(emails(await list('?search_term=analytical'))).toEqual(['ada@example.test']);
      // % and _ are literal.
      expect((await list('?search_term=%25')).total_items).toBe(0);
      expect(emails(await list(`?member_group_id=${research}`))).toEqual(['florence@example.test']);
      expect(emails(await list('?is_admin=true'))).toEqual([DEMO_ADMIN.email]);
      expect(emails(await list('?member_type=individual'))).toEqual(['ada@example.test']);
      expect(emails(await list('?has_sso=true'))).toEqual(['ada@example.test']);
      expect(emails(await list('?has_sso=false&size=100'))).not.toContain('ada@example.test');
      expect(emails(await list('?order_by=name.asc&size=2'))).toEqual(['ada@example.test', DEMO_ADMIN.email]);
      const second = await list('?order_by=email.asc&size=1&page=2');
      expect([second.page, second.items.length]).toEqual([2, 1]);
      await server.db.delete(customFields).where(eq(customFields.id, secret));
    });

    it('filters by member_status, answers 400 for a bad filter, 403 for a member and another tenant sees only its own', async () => {
      const pending = await addMember('waiting.list@example.test', { status: 'pending' });
      expect((await list('?member_status=pending')).items.map((row: { id: number }) => row.id)).toContain(pending);
      expect((await list('?member_status=approved&size=100')).items.map((row: { id: number }) => row.id)).not.toContain(pending);
      expect((await call('/admin/members/?member_status=sleeping')).status).toBe(400);
      expect((await call('/admin/members/', { token: member })).status).toBe(403);
      expect((await call('/admin/members/')).status).toBe(200);
      expect(emails((await call('/admin/members/?size=100', { token: acmeAdmin })).body)).not.toContain('waiting.list@example.test');
    });
  });

  describe('GET, PATCH, DELETE /admin/members/{id}/', () => {
    it('reads one member; another tenant and an unknown id are 404', async () => {
      expect((await call(`/admin/members/${memberId}/`)).body).toMatchObject({ id: memberId, email: DEMO_MEMBER.email });
      expect((await call(`/admin/members/${memberId}/`, { token: acmeAdmin })).status).toBe(404);
      expect((await call('/admin/members/999999/')).status).toBe(404);
      expect((await call(`/admin/members/${memberId}/`, { token: member })).status).toBe(403);
    });

    it('edits name, groups, custom fields, credit limit and admin rights, with an audit row each', async () => {
      const id = await addMember('editable@example.test', { name: 'Edit Me' });
      const patched = await call(`/admin/members/${id}/`, {
        method: 'PATCH',
        body: {
          name: 'Edited',
          default_member_group_id: research,
          member_group_ids: [sales],
          custom_fields: [{ custom_field_id: department, value: 'Lab' }],
          credit_quota: 1234,
          is_admin: true,
        },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        name: 'Edited',
        default_member_group_id: research,
        member_groups: [{ id: research }, { id: sales }],
        credit_quota: 1234,
        is_admin: true,
      });
      expect(patched.body.custom_fields.find((field: { custom_field_id: number }) => field.custom_field_id === department).value).toBe('Lab');

      const [update] = await auditRows('member.update', id);
      expect(update).toMatchObject({ actorId: adminId, actorEmail: DEMO_ADMIN.email, targetType: 'member' });
      expect(update!.changes).toMatchObject({
        name: { from: 'Edit Me', to: 'Edited' },
        default_member_group_id: { from: defaultGroup, to: research },
        member_group_ids: { from: [defaultGroup], to: [research, sales].sort((a, b) => a - b) },
        [`custom_field.${department}`]: { to: 'Lab' },
      });
      expect((await auditRows('member.credit_quota', id))[0]!.changes).toEqual({ credit_quota: { from: null, to: 1234 } });
      expect((await auditRows('member.admin_rights', id))[0]!.changes).toEqual({ is_admin: { from: false, to: true } });

      // Back to the group's limit and no admin rights; an unchanged name writes no row.
      const reset = await call(`/admin/members/${id}/`, { method: 'PATCH', body: { name: 'Edited', credit_quota: null, is_admin: false } });
      expect(reset.body).toMatchObject({ credit_quota: null, is_admin: false });
      expect(await auditRows('member.update', id)).toHaveLength(1);
      expect(await auditRows('member.admin_rights', id)).toHaveLength(2);
    });

    it('refuses bad edits: 400 body, 422 unknown group or field value, 422 own admin rights, 404 another tenant', async () => {
      const path = `/admin/members/${memberId}/`;
      expect((await call(path, { method: 'PATCH', body: {} })).status).toBe(400);
      expect((await call(path, { method: 'PATCH', body: { name: '' } })).status).toBe(400);
      expect((await call(path, { method: 'PATCH', body: { credit_quota: -1 } })).status).toBe(400);
      expect((await call(path, { method: 'PATCH', body: { surprise: 1 } })).status).toBe(400);
      // Half a surrogate pair cannot be written into the audit log's jsonb: refused by the contract.
      expect(await call(path, { method: 'PATCH', body: { name: 'Grace \ud800' } })).toMatchObject({ status: 400, body: { details: expect.anything() } });
      expect(await call(path, { method: 'PATCH', body: { member_group_ids: [999999] } })).toMatchObject({
        status: 422,
        body: { code: 'invalid_member_group' },
      });
      expect(await call(path, { method: 'PATCH', body: { custom_fields: [{ custom_field_id: department, value: ' ' }] } })).toMatchObject({
        status: 422,
        body: { code: 'required_field_missing' },
      });
      const own = await call(`/admin/members/${adminId}/`, { method: 'PATCH', body: { is_admin: false } });
      expect(own).toMatchObject({ status: 422, body: { code: 'own_account', message: 'You cannot remove your own admin rights.' } });
      expect((await call(path, { method: 'PATCH', token: acmeAdmin, body: { name: 'Hijack' } })).status).toBe(404);
      expect((await call(path, { method: 'PATCH', token: member, body: { name: 'Self promotion' } })).status).toBe(403);
    });

    it('a member granted admin rights can use the console at once; removing them closes it', async () => {
      expect((await call('/admin/members/', { token: member })).status).toBe(403);
      await call(`/admin/members/${memberId}/`, { method: 'PATCH', body: { is_admin: true } });
      expect((await call('/admin/members/', { token: member })).status).toBe(200);
      await call(`/admin/members/${memberId}/`, { method: 'PATCH', body: { is_admin: false } });
      expect((await call('/admin/members/', { token: member })).status).toBe(403);
    });

    it('deletes a member with an audit row; not oneself (422), not another tenant (404)', async () => {
      const id = await addMember('leaving@example.test');
      expect((await call(`/admin/members/${id}/`, { method: 'DELETE', token: acmeAdmin })).status).toBe(404);
      expect((await call(`/admin/members/${id}/`, { method: 'DELETE', token: member })).status).toBe(403);
      expect(await call(`/admin/members/${id}/`, { method: 'DELETE' })).toMatchObject({ status: 200, body: { ok: true } });
      expect((await call(`/admin/members/${id}/`)).status).toBe(404);
      expect((await auditRows('member.delete', id))[0]!.changes).toMatchObject({ email: 'leaving@example.test' });
      expect((await call(`/admin/members/${id}/`, { method: 'DELETE' })).status).toBe(404);
      expect(await call(`/admin/members/${adminId}/`, { method: 'DELETE' })).toMatchObject({ status: 422, body: { code: 'own_account' } });
    });
  });

  describe('bulk', () => {
    it('sets the credit limit of several members, skipping other tenants, with an audit row each', async () => {
      const a = await addMember('bulk.quota.a@example.test');
      const b = await addMember('bulk.quota.b@example.test');
      const set = await call('/admin/members/bulk/', { method: 'PATCH', body: { member_ids: [a, b, 999999], credit_quota: 50 } });
      expect(set.body).toEqual({ updated: 2 });
      expect((await auditRows('member.credit_quota', a))[0]!.changes).toEqual({ credit_quota: { from: null, to: 50 } });
      expect(await auditRows('member.credit_quota', b)).toHaveLength(1);
      expect((await call('/admin/members/bulk/', { method: 'PATCH', token: member, body: { member_ids: [a], credit_quota: 1 } })).status).toBe(403);
    });

    it('deletes several members all or none', async () => {
      const a = await addMember('bulk.delete.a@example.test');
      const b = await addMember('bulk.delete.b@example.test');
      expect((await call('/admin/members/bulk/delete/', { method: 'POST', body: { member_ids: [a, 999999] } })).status).toBe(404);
      expect((await call(`/admin/members/${a}/`)).status).toBe(200);
      expect((await call('/admin/members/bulk/delete/', { method: 'POST', body: { member_ids: [a, adminId] } })).status).toBe(422);
      expect((await call('/admin/members/bulk/delete/', { method: 'POST', token: acmeAdmin, body: { member_ids: [a] } })).status).toBe(404);
      expect((await call('/admin/members/bulk/delete/', { method: 'POST', token: member, body: { member_ids: [a] } })).status).toBe(403);
      expect((await call('/admin/members/bulk/delete/', { method: 'POST', body: { member_ids: [] } })).status).toBe(400);
      expect((await call('/admin/members/bulk/delete/', { method: 'POST', body: { member_ids: [a, b] } })).body).toEqual({ deleted: 2 });
      expect(await auditRows('member.delete', b)).toHaveLength(1);
    });
  });

  describe('pending requests', () => {
    const decide = (id: number, body: unknown, token = admin) => call(`/admin/members/${id}/process-pending-request/`, { method: 'POST', token, body });
    const requests = async (query = '') => (await call(`/admin/member-requests/${query}`)).body;

    /** The member asks for other groups on My page (tenant approval on: the request waits). */
    async function askGroupChange(token: string, id: number, defaultId: number, ids: number[]) {
      const asked = await client.call(`/members/${id}/group/`, { method: 'PATCH', token, body: { default_member_group_id: defaultId, member_group_ids: ids } });
      expect(asked.status).toBe(200);
    }

    it('lists registrations and group changes with the requested groups', async () => {
      const newcomer = await addMember('newcomer@example.test', { status: 'pending', name: 'Newcomer' }, [research]);
      await askGroupChange(member, memberId, defaultGroup, [defaultGroup, sales]);
      const all = await requests('?size=100');
      const registration = all.items.find((row: { member_id: number }) => row.member_id === newcomer);
      expect(registration).toMatchObject({
        request_type: 'registration',
        name: 'Newcomer',
        requested_default_member_group_id: defaultGroup,
        requested_groups: [{ id: defaultGroup }, { id: research }],
        current_groups: [],
      });
      const change = all.items.find((row: { member_id: number }) => row.member_id === memberId);
      expect(change).toMatchObject({
        request_type: 'group_update',
        requested_groups: [{ id: defaultGroup }, { id: sales }],
        current_groups: [{ id: defaultGroup }],
      });
      expect((await requests('?request_type=group_update')).items.map((row: { member_id: number }) => row.member_id)).toEqual([memberId]);
      expect((await requests('?request_type=registration&size=100')).items.map((row: { member_id: number }) => row.member_id)).not.toContain(memberId);
      expect((await requests('?search_term=newcomer')).items.map((row: { member_id: number }) => row.member_id)).toEqual([newcomer]);
      expect((await call('/admin/member-requests/', { token: member })).status).toBe(403);
      expect((await call('/admin/member-requests/', { token: acmeAdmin })).body.total_items).toBe(0);
    });

    it('approves a group change: the requested groups become the member’s, mailed and audited', async () => {
      const before = sink.received.length;
      expect((await decide(memberId, { approve: true }, acmeAdmin)).status).toBe(404);
      expect((await decide(memberId, { approve: true }, member)).status).toBe(403);
      expect((await decide(memberId, { approve: true })).body).toEqual({ member_status: 'approved', request_type: 'group_update' });
      expect((await call(`/admin/members/${memberId}/`)).body.member_groups.map((group: { id: number }) => group.id)).toEqual([defaultGroup, sales]);
      expect((await sink.mailsAfter(before))[0]!.envelopeTo).toEqual([DEMO_MEMBER.email]);
      expect(sink.received.length).toBe(before + 1);
      expect((await auditRows('member.request_decision', memberId))[0]!.changes).toMatchObject({ request_type: 'group_update', approve: true });
      expect((await decide(memberId, { approve: true })).status).toBe(404);
    });

    it('rejecting needs a reason, which is mailed to the requester in their language', async () => {
      const id = await addMember('refused@example.test', { status: 'pending', language: 'es', name: 'Rechazado' });
      expect(await decide(id, { approve: false })).toMatchObject({
        status: 422,
        body: { code: 'reason_required', message: 'Please provide a reason for the requester.' },
      });
      expect((await decide(id, { approve: false, reason: '   ' })).status).toBe(422);
      const before = sink.received.length;
      expect((await decide(id, { approve: false, reason: 'Unknown department' })).body).toEqual({ member_status: 'rejected', request_type: 'registration' });
      const [mail] = await sink.mailsAfter(before);
      expect(mail!.envelopeTo).toEqual(['refused@example.test']);
      expect(mail!.parsed.subject).toContain('rechazada');
      expect(mail!.parsed.text).toContain('Unknown department');
      expect((await call(`/admin/members/${id}/`)).body.member_status).toBe('rejected');
      expect((await auditRows('member.request_decision', id))[0]!.changes).toMatchObject({
        request_type: 'registration',
        approve: false,
        reason: 'Unknown department',
      });
      // A rejected group change leaves the groups as they were.
      await askGroupChange(member, memberId, defaultGroup, [defaultGroup, research]);
      const beforeGroupChange = sink.received.length;
      expect((await decide(memberId, { approve: false, reason: 'Research is full' })).body).toEqual({
        member_status: 'approved',
        request_type: 'group_update',
      });
      expect((await call(`/admin/members/${memberId}/`)).body.member_groups.map((group: { id: number }) => group.id)).toEqual([defaultGroup, sales]);
      expect((await sink.mailsAfter(beforeGroupChange))[0]!.parsed.text).toContain('Research is full');
    });

    it('decides in bulk, all or none, and 402 beyond the plan’s member limit', async () => {
      const a = await addMember('bulk.a@example.test', { status: 'pending' }, [research]);
      const b = await addMember('bulk.b@example.test', { status: 'pending' });
      const bulk = (body: unknown, token = admin) => call('/admin/members/bulk/process-pending-request/', { method: 'POST', token, body });
      // One id without a pending request: nothing is decided.
      expect((await bulk({ member_ids: [a, memberId], approve: true })).status).toBe(404);
      expect((await call(`/admin/members/${a}/`)).body.member_status).toBe('pending');
      expect((await bulk({ member_ids: [a, b], approve: false })).status).toBe(422);
      expect((await bulk({ member_ids: [a, b], approve: true }, member)).status).toBe(403);
      expect((await bulk({ member_ids: [a, b], approve: true }, acmeAdmin)).status).toBe(404);

      const [{ n: active }] = (await server.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(members)
        .where(and(eq(members.tenantId, tenantId), sql`${members.status} in ('approved', 'invited')`))) as [{ n: number }];
      const [demo] = await server.db.select().from(tenants).where(eq(tenants.id, tenantId));
      await server.db
        .update(plans)
        .set({ memberLimit: active + 1 })
        .where(eq(plans.id, demo!.planId!));
      expect(await bulk({ member_ids: [a, b], approve: true })).toMatchObject({ status: 402, body: { code: 'member_limit_reached' } });
      expect((await call(`/admin/members/${b}/`)).body.member_status).toBe('pending');
      await server.db.update(plans).set({ memberLimit: 50_000 }).where(eq(plans.id, demo!.planId!));

      const before = sink.received.length;
      expect((await bulk({ member_ids: [a, b], approve: true })).body).toEqual({ processed: 2 });
      expect((await call(`/admin/members/${a}/`)).body).toMatchObject({ member_status: 'approved', member_groups: [{ id: defaultGroup }, { id: research }] });
      expect((await sink.mailsAfter(before, 2)).flatMap((mail) => mail.envelopeTo).sort()).toEqual(['bulk.a@example.test', 'bulk.b@example.test']);
      expect(await auditRows('member.request_decision', b)).toHaveLength(1);

      const c = await addMember('bulk.c@example.test', { status: 'pending' });
      const beforeRejection = sink.received.length;
      expect((await bulk({ member_ids: [c], approve: false, reason: 'Not an employee' })).body).toEqual({ processed: 1 });
      expect((await sink.mailsAfter(beforeRejection))[0]!.parsed.text).toContain('Not an employee');
    });
  });

  it('stays a server-paged list with 10,000 members (search, group filter, count)', async () => {
    await server.db.execute(sql`
      insert into members (tenant_id, email, name, status, default_member_group_id)
      select ${tenantId}, 'load' || n || '@example.test', 'Load member ' || n, 'approved', ${defaultGroup} from generate_series(1, 10000) as n`);
    await server.db.execute(sql`
      insert into member_group_links (tenant_id, member_id, member_group_id)
      select ${tenantId}, id, ${sales} from members where tenant_id = ${tenantId} and email like 'load%'`);
    const page = await list('?size=100&page=3');
    expect(page.items).toHaveLength(100);
    expect(page.total_items).toBeGreaterThan(10_000);
    const searched = await list('?search_term=load9999@');
    expect(emails(searched)).toEqual(['load9999@example.test']);
    expect((await list(`?member_group_id=${sales}`)).total_items).toBeGreaterThanOrEqual(10_000);
  });
});

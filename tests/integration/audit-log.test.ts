import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, tenants } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { samplePng } from '../fixtures/sampleFiles';
import { apiClient } from './helpers/client';

/** Issue 11: every admin write leaves its audit row in the same transaction; the log is read only. */
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let admin: string;
let adminId: number;
let member: string;
let otherAdmin: string;
let tenantId: number;

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['other', 'gone'] });
  api = apiClient(server);
  const signedIn = await api.signIn(DEMO_ADMIN);
  admin = signedIn.access_token;
  adminId = signedIn.member.id;
  member = (await api.signIn(DEMO_MEMBER)).access_token;
  otherAdmin = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
  tenantId = (await server.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, server.config.DEFAULT_TENANT)))[0]!.id;
});
afterAll(() => server?.close());

const call = (path: string, method: string, body?: unknown, token = admin) => api.call(path, { method, token, body });

async function lastId(): Promise<number> {
  const [row] = await server.db.select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)`.mapWith(Number) }).from(auditLog);
  return row?.id ?? 0;
}

/** The audit rows written since `mark`, oldest first. */
const rowsSince = (mark: number) => server.db.select().from(auditLog).where(gt(auditLog.id, mark)).orderBy(asc(auditLog.id));

/** Runs `write` and returns the rows it left (it must answer 200). */
async function audited(write: () => Promise<{ status: number; body: unknown }>) {
  const mark = await lastId();
  const result = await write();
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { result, rows: await rowsSince(mark) };
}

const byAdmin = { tenantId: expect.any(Number), actorId: expect.any(Number), actorName: expect.any(String), actorEmail: DEMO_ADMIN.email };

describe('every existing admin write records exactly its row', () => {
  it('announcements: create, update (from → to), delete', async () => {
    const created = await audited(() => call('/admin/announcements/', 'POST', { content: 'Maintenance tonight', is_active: false }));
    const id = (created.result.body as { id: number }).id;
    expect(created.rows).toEqual([
      expect.objectContaining({
        ...byAdmin,
        actorId: adminId,
        tenantId,
        action: 'announcement.create',
        targetType: 'announcement',
        targetId: String(id),
        changes: { content: 'Maintenance tonight', is_active: false },
      }),
    ]);
    const edited = await audited(() => call(`/admin/announcements/${id}/`, 'PATCH', { content: 'Maintenance at 22:00' }));
    expect(edited.rows).toEqual([
      expect.objectContaining({
        action: 'announcement.update',
        targetId: String(id),
        changes: { content: { from: 'Maintenance tonight', to: 'Maintenance at 22:00' } },
      }),
    ]);
    // Switching it on switches the live one off: the row says which.
    const live = (await call('/admin/announcements/', 'POST', { content: 'Live now', is_active: true })).body.id as number;
    const activated = await audited(() => call(`/admin/announcements/${id}/`, 'PATCH', { is_active: true }));
    expect(activated.rows).toEqual([
      expect.objectContaining({ action: 'announcement.update', changes: { is_active: { from: false, to: true }, deactivated_announcement_ids: [live] } }),
    ]);
    await call(`/admin/announcements/${id}/`, 'PATCH', { is_active: false });
    const deleted = await audited(() => call(`/admin/announcements/${id}/`, 'DELETE'));
    expect(deleted.rows).toEqual([
      expect.objectContaining({ action: 'announcement.delete', targetId: String(id), changes: { content: 'Maintenance at 22:00', is_active: false } }),
    ]);
    // A refused write (404) records nothing.
    const mark = await lastId();
    expect((await call(`/admin/announcements/${id}/`, 'DELETE')).status).toBe(404);
    expect(await rowsSince(mark)).toEqual([]);
  });

  it('publish decisions: one row per chatbot, single and bulk, with the reason of a rejection', async () => {
    const requested = async (name: string) => {
      const { id } = (await api.call('/chatbots/', { method: 'POST', token: member })).body;
      await api.call(`/chatbots/${id}/`, { method: 'PATCH', token: member, body: { en_name: name, ko_name: name } });
      expect((await api.call(`/chatbots/${id}/access/`, { method: 'PATCH', token: member, body: { is_public: true, member_group_ids: [] } })).status).toBe(200);
      return id as number;
    };
    const single = await requested('Tax Helper');
    const approved = await audited(() => call(`/admin/chatbots/${single}/process-publish-request/`, 'POST', { approve: true }));
    expect(approved.rows).toEqual([
      expect.objectContaining({
        action: 'chatbot.publish_decision',
        targetType: 'chatbot',
        targetId: String(single),
        changes: { name: 'Tax Helper', publish_status: { from: 'pending', to: 'approved' } },
      }),
    ]);
    const [a, b] = [await requested('Essay Grader'), await requested('Travel Planner')];
    const bulk = await audited(() =>
      call('/admin/chatbots/bulk-process-publish-request/', 'POST', { chatbot_ids: [a, b], approve: false, reason: 'Add sources.' }),
    );
    expect(bulk.rows.map((row) => [row.targetId, row.changes])).toEqual(
      [
        [String(a), { name: 'Essay Grader', publish_status: { from: 'pending', to: 'rejected' }, reason: 'Add sources.' }],
        [String(b), { name: 'Travel Planner', publish_status: { from: 'pending', to: 'rejected' }, reason: 'Add sources.' }],
      ].sort(),
    );
    // All or none: one id that is not waiting rolls the decision back, and its audit rows with it.
    const c = await requested('Recipe Box');
    const mark = await lastId();
    expect((await call('/admin/chatbots/bulk-process-publish-request/', 'POST', { chatbot_ids: [c, single], approve: true })).status).toBe(404);
    expect(await rowsSince(mark)).toEqual([]);
  });

  it('model permissions: the model, the group and the availability from → to', async () => {
    const { models, groups } = (await api.call('/admin/llm-models/', { token: admin })).body;
    const model = models.find((row: { is_unlimited: boolean }) => !row.is_unlimited);
    const { rows } = await audited(() => call(`/admin/llm-models/${model.id}/member-groups/${groups[0].id}/`, 'PATCH', { is_available: false }));
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'model_permission.update',
        targetType: 'model_permission',
        targetId: `${model.id}/${groups[0].id}`,
        changes: { model: model.name, member_group: 'Default group', is_available: { from: true, to: false } },
      }),
    ]);
    await call(`/admin/llm-models/${model.id}/member-groups/${groups[0].id}/`, 'PATCH', { is_available: true });
  });

  it('restricted words: create and delete; a refused duplicate leaves no row', async () => {
    const created = await audited(() => call('/admin/restricted-words/', 'POST', { word: 'Codename' }));
    const id = (created.result.body as { id: number }).id;
    expect(created.rows).toEqual([expect.objectContaining({ action: 'restricted_word.create', targetId: String(id), changes: { word: 'Codename' } })]);
    const mark = await lastId();
    expect((await call('/admin/restricted-words/', 'POST', { word: 'codename' })).status).toBe(409);
    expect(await rowsSince(mark)).toEqual([]);
    const deleted = await audited(() => call(`/admin/restricted-words/${id}/`, 'DELETE'));
    expect(deleted.rows).toEqual([expect.objectContaining({ action: 'restricted_word.delete', targetId: String(id), changes: { word: 'Codename' } })]);
  });

  it('PII, sign-up and tenant settings: only the fields that changed', async () => {
    const pii = await audited(() => call('/admin/pii-settings/', 'PATCH', { phone: 'block', email: 'off' }));
    expect(pii.rows).toEqual([
      expect.objectContaining({ action: 'pii_settings.update', targetType: 'pii_settings', targetId: null, changes: { phone: { from: 'off', to: 'block' } } }),
    ]);
    const signup = await audited(() => call('/admin/sign-up-settings/', 'PATCH', { signup_open: false, approval: 'admin' }));
    expect(signup.rows).toEqual([expect.objectContaining({ action: 'signup_settings.update', changes: { signup_open: { from: true, to: false } } })]);
    await call('/admin/sign-up-settings/', 'PATCH', { signup_open: true });
    const renamed = await audited(() => call('/admin/tenant-settings/', 'PATCH', { tenant_name: 'Acme Research', support_email: 'help@acme.example' }));
    expect(renamed.rows).toEqual([
      expect.objectContaining({
        action: 'tenant_settings.update',
        changes: { tenant_name: { from: expect.any(String), to: 'Acme Research' }, support_email: { from: null, to: 'help@acme.example' } },
      }),
    ]);
  });

  it('tenant settings: a logo upload and its removal', async () => {
    const mark = await lastId();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'logo.png');
    const uploaded = await fetch(`${server.apiBase}/admin/tenant-settings/logo/`, { method: 'POST', headers: { 'x-access-token': admin }, body: form });
    expect(uploaded.status).toBe(200);
    const { logo_url } = (await uploaded.json()) as { logo_url: string };
    expect(await rowsSince(mark)).toEqual([
      expect.objectContaining({ action: 'tenant_settings.update', changes: { logo_url: { from: expect.any(String), to: logo_url } } }),
    ]);
    const removed = await audited(() => call('/admin/tenant-settings/logo/', 'DELETE'));
    expect(removed.rows).toEqual([expect.objectContaining({ action: 'tenant_settings.update', changes: { logo_url: { from: logo_url, to: null } } })]);
  });

  it('custom fields: create, update, delete; a refused name leaves no row', async () => {
    const created = await audited(() => call('/admin/custom-fields/', 'POST', { field_name: 'Office', is_required: true }));
    const id = (created.result.body as { id: number }).id;
    expect(created.rows).toEqual([
      expect.objectContaining({
        action: 'custom_field.create',
        targetId: String(id),
        changes: expect.objectContaining({ field_name: 'Office', field_type: 'text', is_required: true }),
      }),
    ]);
    const mark = await lastId();
    expect((await call('/admin/custom-fields/', 'POST', { field_name: 'office' })).status).toBe(409);
    expect(await rowsSince(mark)).toEqual([]);
    const edited = await audited(() => call(`/admin/custom-fields/${id}/`, 'PATCH', { is_required: false, is_editable: true }));
    expect(edited.rows).toEqual([
      expect.objectContaining({ action: 'custom_field.update', changes: { field_name: 'Office', is_required: { from: true, to: false } } }),
    ]);
    const deleted = await audited(() => call(`/admin/custom-fields/${id}/`, 'DELETE'));
    expect(deleted.rows).toEqual([expect.objectContaining({ action: 'custom_field.delete', changes: expect.objectContaining({ field_name: 'Office' }) })]);
  });

  it('policies: create, update, delete', async () => {
    const created = await audited(() => call('/admin/policies/', 'POST', { policy_name: 'Terms', kind: 'markdown', markdown_content: '# Terms' }));
    const id = (created.result.body as { id: number }).id;
    expect(created.rows).toEqual([
      expect.objectContaining({
        action: 'policy.create',
        targetId: String(id),
        changes: expect.objectContaining({ policy_name: 'Terms', kind: 'markdown', is_mandatory: true }),
      }),
    ]);
    const edited = await audited(() => call(`/admin/policies/${id}/`, 'PATCH', { is_mandatory: false }));
    expect(edited.rows).toEqual([
      expect.objectContaining({ action: 'policy.update', changes: { policy_name: 'Terms', is_mandatory: { from: true, to: false } } }),
    ]);
    const deleted = await audited(() => call(`/admin/policies/${id}/`, 'DELETE'));
    expect(deleted.rows).toEqual([expect.objectContaining({ action: 'policy.delete', changes: expect.objectContaining({ policy_name: 'Terms' }) })]);
  });

  it('SSO platforms: create, update, delete, and the secrets never reach the log', async () => {
    const settings = { kind: 'directory', url: 'ldap://directory.example', bind_dn: 'cn=reader', bind_password: 'bind-Secret-1', search_base: 'dc=example' };
    const created = await audited(() => call('/admin/sso-platforms/', 'POST', { sso_platform_name: 'Directory', settings }));
    const id = (created.result.body as { id: number }).id;
    expect(created.rows).toEqual([
      expect.objectContaining({
        action: 'sso_platform.create',
        targetId: String(id),
        changes: expect.objectContaining({ sso_platform_name: 'Directory', url: 'ldap://directory.example', secret_set: true }),
      }),
    ]);
    const edited = await audited(() =>
      call(`/admin/sso-platforms/${id}/`, 'PUT', {
        sso_platform_name: 'Directory',
        settings: { ...settings, bind_password: 'bind-Secret-2', search_base: 'dc=corp' },
      }),
    );
    expect(edited.rows).toEqual([
      expect.objectContaining({
        action: 'sso_platform.update',
        changes: { sso_platform_name: 'Directory', search_base: { from: 'dc=example', to: 'dc=corp' }, secret_replaced: true },
      }),
    ]);
    const kept = await audited(() =>
      call(`/admin/sso-platforms/${id}/`, 'PUT', { sso_platform_name: 'Corp directory', settings: { ...settings, bind_password: '' } }),
    );
    expect(kept.rows[0]!.changes).toEqual({
      sso_platform_name: { from: 'Directory', to: 'Corp directory' },
      search_base: { from: 'dc=corp', to: 'dc=example' },
    });
    const deleted = await audited(() => call(`/admin/sso-platforms/${id}/`, 'DELETE'));
    expect(deleted.rows).toEqual([
      expect.objectContaining({
        action: 'sso_platform.delete',
        changes: expect.objectContaining({ sso_platform_name: 'Corp directory', disconnected_members: 0 }),
      }),
    ]);
    const everything = JSON.stringify(await server.db.select().from(auditLog));
    expect(everything).not.toContain('bind-Secret');
    expect(everything).not.toContain('bind_password');
  });
});

describe('GET /admin/audit-log/', () => {
  const list = async (query = '', token = admin) => api.call(`/admin/audit-log/${query}`, { token });

  it('lists newest first, ten a page by default, with the actor as recorded', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, page_size: 10 });
    expect(first.body.items).toHaveLength(10);
    expect(first.body.total_items).toBeGreaterThan(20);
    const times = first.body.items.map((row: { created_at: string; id: number }) => row.id);
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(first.body.items[0]).toMatchObject({ actor: { id: adminId, email: DEMO_ADMIN.email }, target_type: expect.any(String) });
    const second = await list('?page=2&size=5');
    expect(second.body.items).toHaveLength(5);
    expect(second.body.items[0].id).toBe(first.body.items[5].id);
  });

  it('filters by action, actor, target type, dates and search term', async () => {
    const words = await list('?action=restricted_word.create');
    expect(words.body.items.map((row: { changes: unknown }) => row.changes)).toEqual([{ word: 'Codename' }]);
    expect((await list('?target_type=policy')).body.items.map((row: { action: string }) => row.action)).toEqual([
      'policy.delete',
      'policy.update',
      'policy.create',
    ]);
    expect((await list(`?actor_id=${adminId}&size=1`)).body.total_items).toBe((await list('?size=1')).body.total_items);
    expect((await list('?actor_id=999999')).body.total_items).toBe(0);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    expect((await list(`?from=${encodeURIComponent(tomorrow)}`)).body.total_items).toBe(0);
    expect((await list(`?to=${encodeURIComponent(yesterday)}`)).body.total_items).toBe(0);
    expect((await list(`?from=${encodeURIComponent(yesterday)}&to=${encodeURIComponent(tomorrow)}&size=1`)).body.total_items).toBe(
      (await list('?size=1')).body.total_items,
    );
    const bySearch = await list(`?search_term=${encodeURIComponent(DEMO_ADMIN.email.slice(0, 6).toUpperCase())}&size=1`);
    expect(bySearch.body.total_items).toBe((await list('?size=1')).body.total_items);
    const target = words.body.items[0].target_id as string;
    expect((await list(`?search_term=${target}`)).body.items.map((row: { target_id: string }) => row.target_id)).toEqual(expect.arrayContaining([target]));
    expect((await list('?search_term=nobody-at-all')).body.total_items).toBe(0);
  });

  it('refuses bad filters (400), members (403) and callers without a token (401)', async () => {
    expect((await list('?action=member.explode')).status).toBe(400);
    expect((await list('?from=yesterday')).status).toBe(400);
    expect((await list('', member)).status).toBe(403);
    expect((await api.call('/admin/audit-log/')).status).toBe(401);
  });

  it("never shows another tenant's rows", async () => {
    expect((await api.call('/admin/audit-log/', { token: otherAdmin, tenant: 'other' })).body.total_items).toBe(0);
    // The other tenant's token is no key to this tenant's log.
    expect((await list('', otherAdmin)).status).toBe(401);
    await api.call('/admin/restricted-words/', { method: 'POST', token: otherAdmin, tenant: 'other', body: { word: 'elsewhere' } });
    const other = await api.call('/admin/audit-log/', { token: otherAdmin, tenant: 'other' });
    expect(other.body.items.map((row: { changes: unknown }) => row.changes)).toEqual([{ word: 'elsewhere' }]);
    expect((await list('?action=restricted_word.create')).body.items.map((row: { changes: unknown }) => row.changes)).toEqual([{ word: 'Codename' }]);
  });
});

describe('the database keeps the log immutable', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit rows while the tenant exists', async () => {
    const [row] = await server.db.select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).limit(1);
    await expect(server.db.update(auditLog).set({ action: 'member.delete' }).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(server.db.update(auditLog).set({ changes: {} }).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(server.db.delete(auditLog).where(eq(auditLog.id, row!.id))).rejects.toThrow();
    await expect(server.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    const [still] = await server.db.select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(still).toEqual(row);
  });

  it('lets the deletion of the acting member null actor_id only (the name and email stay)', async () => {
    const [row] = await server.db.select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).limit(1);
    await server.db.update(auditLog).set({ actorId: null }).where(eq(auditLog.id, row!.id));
    const [after] = await server.db.select().from(auditLog).where(eq(auditLog.id, row!.id));
    expect(after).toEqual({ ...row, actorId: null });
  });

  it("goes with its tenant: deleting a tenant cascades to the tenant's rows", async () => {
    const [gone] = await server.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, 'gone'));
    const goneAdmin = (await api.signIn(DEMO_ADMIN, 'gone')).access_token;
    expect((await api.call('/admin/restricted-words/', { method: 'POST', token: goneAdmin, tenant: 'gone', body: { word: 'farewell' } })).status).toBe(200);
    expect(await server.db.select().from(auditLog).where(eq(auditLog.tenantId, gone!.id))).toHaveLength(1);
    await server.db.delete(tenants).where(eq(tenants.id, gone!.id));
    expect(await server.db.select().from(auditLog).where(eq(auditLog.tenantId, gone!.id))).toEqual([]);
    expect(
      (
        await server.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.tenantId, tenantId)))
      ).length,
    ).toBeGreaterThan(0);
  });
});

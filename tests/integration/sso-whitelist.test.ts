import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('SSO whitelist (admin)', () => {
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

  const upsert = (emails: string[], token = admin, tenant?: string) =>
    client.call('/admin/sso-member-whitelist/bulk-upsert/', { method: 'POST', token, tenant, body: { sso_member_whitelist: emails } });
  const list = (query = '', token = admin, tenant?: string) => client.call(`/admin/sso-member-whitelist/${query}`, { token, tenant });
  const bulkDelete = (ids: number[], token = admin, tenant?: string) =>
    client.call('/admin/sso-member-whitelist/bulk-delete/', { method: 'POST', token, tenant, body: { sso_member_whitelist_ids: ids } });
  const audits = async (action: string) => server.db.select().from(auditLog).where(eq(auditLog.action, action));

  it('adds valid emails (lower-cased, once), counts existing ones and reports invalid ones', async () => {
    const first = await upsert(['Ann@Example.test', 'bob@example.test', 'not-an-email', 'ann@example.test']);
    expect(first).toMatchObject({ status: 200, body: { added: 2, existing: 0, invalid: ['not-an-email'] } });
    const again = await upsert(['bob@example.test', 'cy@example.test']);
    expect(again.body).toEqual({ added: 1, existing: 1, invalid: [] });
    expect((await upsert(['nothing here'])).body).toEqual({ added: 0, existing: 0, invalid: ['nothing here'] });
    const rows = await audits('sso_whitelist.upsert');
    expect(rows.map((row) => row.changes)).toEqual([{ added: ['ann@example.test', 'bob@example.test'] }, { added: ['cy@example.test'] }]);
    expect(rows[0]).toMatchObject({ actorEmail: DEMO_ADMIN.email, targetType: 'sso_whitelist' });
    expect((await upsert([])).status).toBe(400);
  });

  it('lists newest first by default, searches, orders and pages', async () => {
    const listed = await list();
    expect(listed.status).toBe(200);
    // Spec §9: admin lists default to 10 a page.
    expect(listed.body.page_size).toBe(10);
    expect(listed.body.items.map((row: { email: string }) => row.email)).toEqual(['cy@example.test', 'bob@example.test', 'ann@example.test']);
    expect((await list('?order_by=email.asc')).body.items.map((row: { email: string }) => row.email)).toEqual([
      'ann@example.test',
      'bob@example.test',
      'cy@example.test',
    ]);
    expect((await list('?search_term=BOB')).body).toMatchObject({ total_items: 1, items: [{ email: 'bob@example.test', name: null }] });
    expect((await list('?page=2&size=2')).body).toMatchObject({ total_items: 3, total_pages: 2, items: [{ email: 'ann@example.test' }] });
    expect((await list('?order_by=name.sideways')).status).toBe(400);
  });

  it('exports the list as CSV', async () => {
    const response = await fetch(`${server.apiBase}/admin/sso-member-whitelist/export/`, { headers: { 'x-access-token': admin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toContain('sso-whitelist.csv');
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('email,name,created_at');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['ann@example.test', 'bob@example.test', 'cy@example.test']);
  });

  it('deletes entries (404 when none is the tenant’s), one audit row each', async () => {
    const ids = (await list()).body.items.map((row: { id: number }) => row.id);
    expect((await bulkDelete(ids.slice(0, 2))).body).toEqual({ deleted: 2 });
    expect((await bulkDelete(ids.slice(0, 2))).status).toBe(404);
    expect((await list()).body.total_items).toBe(1);
    expect((await audits('sso_whitelist.delete')).map((row) => row.changes)).toEqual(
      expect.arrayContaining([{ email: 'cy@example.test' }, { email: 'bob@example.test' }]),
    );
  });

  it("refuses members (403) and another tenant's entries (404)", async () => {
    const [entry] = (await list()).body.items;
    expect((await list('', member)).status).toBe(403);
    expect((await upsert(['x@example.test'], member)).status).toBe(403);
    expect((await bulkDelete([entry.id], member)).status).toBe(403);
    expect((await fetch(`${server.apiBase}/admin/sso-member-whitelist/export/`, { headers: { 'x-access-token': member } })).status).toBe(403);
    expect((await bulkDelete([entry.id], acmeAdmin, 'acme')).status).toBe(404);
    expect((await list('', acmeAdmin, 'acme')).body.total_items).toBe(0);
    expect((await list()).body.total_items).toBe(1);
  });
});

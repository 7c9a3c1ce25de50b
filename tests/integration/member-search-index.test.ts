/**
 * The admin member search is answered by the trigram indexes of migration 0028, not by reading every
 * member of the tenant: EXPLAIN of the list's own count statement (the one that must find every
 * match) on a tenant with 10,000 members. On PostgreSQL when TEST_DATABASE_URL is set, else on PGlite.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLocation } from '../../src/server/db/client';
import { customFields, memberGroups, members, tenants } from '../../src/server/db/schema';
import { adminMemberFilters } from '../../src/server/domains/members/admin';
import { adminMemberListQuerySchema } from '../../src/shared/api/admin/members';
import { DEMO_ADMIN, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('member search index', () => {
  let server: TestServer;
  let tenantId: number;

  beforeAll(async () => {
    server = await startTestServer();
    const [demo] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    tenantId = demo!.id;
    const [group] = await server.db
      .select()
      .from(memberGroups)
      .where(and(eq(memberGroups.tenantId, tenantId), eq(memberGroups.isDefault, true)));
    const [department] = await server.db
      .select()
      .from(customFields)
      .where(and(eq(customFields.tenantId, tenantId), eq(customFields.enName, 'Department')));
    await server.db.update(customFields).set({ isSearchable: true }).where(eq(customFields.id, department!.id));
    await server.db.execute(sql`
      insert into members (tenant_id, email, name, status, default_member_group_id)
      select ${tenantId}, substr(md5('e' || n), 1, 12) || '@example.test', 'Member ' || substr(md5('n' || n), 1, 12), 'approved', ${group!.id}
      from generate_series(1, 10000) as n`);
    await server.db.execute(sql`
      insert into member_custom_field_values (tenant_id, member_id, custom_field_id, value)
      select ${tenantId}, id, ${department!.id}, 'Team ' || substr(md5('t' || (id % 500)), 1, 8) from members where tenant_id = ${tenantId} and email like '%@example.test'`);
    // What autovacuum does after a bulk load: moves GIN's pending entries into the index and counts
    // them, without which the planner prices a trigram lookup as a read of the pending list.
    await server.db.execute(sql`vacuum analyze members`);
    await server.db.execute(sql`vacuum analyze member_custom_field_values`);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** The plan of the admin member list's count for `search_term`, as the service builds it. */
  async function planOf(searchTerm: string): Promise<string> {
    const query = adminMemberListQuerySchema.parse({ search_term: searchTerm });
    const statement = server.db
      .select({ total: sql<number>`count(*)` })
      .from(members)
      .where(adminMemberFilters(tenantId, query))
      .toSQL();
    const text = `explain ${statement.sql}`;
    if (server.databaseUrl) {
      const client = postgres(server.databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const rows = await client.unsafe<{ 'QUERY PLAN': string }[]>(text, statement.params as never[]);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await client.end();
      }
    }
    const location = databaseLocation(server.db);
    if (location.kind !== 'pglite') throw new Error('expected PGlite');
    const result = await location.client.query<{ 'QUERY PLAN': string }>(text, statement.params);
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it('finds name, email and searchable values through the trigram indexes, never a scan of the tenant’s members', { timeout: 60_000 }, async () => {
    // Varied names as in a real workspace: a search for part of one member's email is selective.
    const target = { email: `${md5('e9999').slice(0, 12)}@example.test`, name: `Member ${md5('n9999').slice(0, 12)}` };
    const emailPart = target.email.slice(2, 10);
    const plan = await planOf(emailPart);
    expect(plan).toMatch(/Bitmap Index Scan on members_(name|email)_trgm_idx/);
    expect(plan).toContain('Bitmap Index Scan on member_custom_field_values_value_trgm_idx');
    expect(plan).not.toMatch(/Seq Scan on members/);

    // The same search through the API answers the same members.
    const api = apiClient(server);
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const byEmail = await api.call(`/admin/members/?search_term=${emailPart.toUpperCase()}`, { token: admin });
    expect(byEmail.body.items.map((m: { email: string }) => m.email)).toContain(target.email);
    const byName = await api.call(`/admin/members/?search_term=${encodeURIComponent(target.name.slice(-9))}`, { token: admin });
    expect(byName.body.items.map((m: { email: string }) => m.email)).toContain(target.email);
    const team = `Team ${md5('t7').slice(0, 8)}`;
    const byValue = await api.call(`/admin/members/?search_term=${encodeURIComponent(team)}&size=100`, { token: admin });
    expect(byValue.body.total_items).toBe(20);
  });
});

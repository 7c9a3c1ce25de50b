import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mcpServers, memberGroups, members, tenants } from '../../src/server/db/schema';
import { memberMcpTools } from '../../src/server/domains/mcpServers/service';
import { type FixtureMcpServer, startFixtureMcpServer, startNotMcpServer } from '../fixtures/mcpServer';
import { freePort } from '../fixtures/ports';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

/** A connection that never answers waits this long: short, so the test stays quick. */
const TIMEOUT_SECONDS = 2;
const SECRET = 'fixture-secret-7f3a';

describe('MCP servers (issue 24)', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let fixture: FixtureMcpServer;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    fixture = await startFixtureMcpServer({ tools: ['lookup', 'translate'], bearer: SECRET });
    closers.push(fixture.close);
    server = await startTestServer({ extraTenants: ['acme'], config: { MCP_CONNECT_TIMEOUT_SECONDS: TIMEOUT_SECONDS } });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(closers.map((close) => close()));
  });

  const create = (body: object, token = admin, tenant?: string) => client.call('/admin/mcp-servers/', { method: 'POST', body, token, tenant });
  const tools = async (id: number, token = admin, tenant?: string) => client.call(`/admin/mcp-servers/${id}/tools/`, { token, tenant });
  const toolNamed = async (serverId: number, name: string) => (await tools(serverId)).body.items.find((tool: { name: string }) => tool.name === name);
  const refresh = (id: number) => client.call(`/admin/mcp-servers/${id}/refresh/`, { method: 'POST', token: admin });
  const setTool = (serverId: number, toolId: number, body: object, token = admin, tenant?: string) =>
    client.call(`/admin/mcp-servers/${serverId}/tools/${toolId}/`, { method: 'PATCH', body, token, tenant });
  const memberRow = async (tenantSubdomain = 'demo') => {
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, tenantSubdomain));
    const [row] = await server.db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenant!.id), eq(members.email, DEMO_MEMBER.email)));
    return row!;
  };

  let serverId: number;

  it('connects on save with the bearer secret, lists the tools switched off, and never answers the secret', async () => {
    const created = await create({ name: 'Fixture', url: fixture.url, description: 'Test tools', secret_kind: 'bearer', secret: SECRET });
    expect(created.status).toBe(200);
    serverId = created.body.id;
    expect(created.body).toMatchObject({ name: 'Fixture', has_secret: true, tool_count: 2, enabled_tool_count: 0, last_error: null, secret_kind: 'bearer' });
    expect(created.body.last_connected_at).toEqual(expect.any(String));
    const listed = await tools(serverId);
    expect(listed.body.items.map((tool: { name: string }) => tool.name)).toEqual(['lookup', 'translate']);
    expect(listed.body.items[0]).toMatchObject({
      is_enabled: false,
      is_sensitive: false,
      is_gone: false,
      member_group_ids: [],
      description: 'The lookup tool',
    });
    expect(listed.body.items[0].input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(listed.body.groups).toEqual([expect.objectContaining({ en_name: 'Default group', is_default: true })]);

    // Nowhere: not the answers, not the list, not the audit log.
    const list = await client.call('/admin/mcp-servers/', { token: admin });
    expect(list.body.items).toEqual([expect.objectContaining({ id: serverId, has_secret: true })]);
    const everything = JSON.stringify([created.body, listed.body, list.body, await server.db.select().from(auditLog)]);
    expect(everything).not.toContain(SECRET);
  });

  it('keeps the stored secret when an edit leaves it empty, and refuses a wrong one (424 mcp_unauthorized, stored)', async () => {
    const kept = await client.call(`/admin/mcp-servers/${serverId}/`, {
      method: 'PUT',
      token: admin,
      body: { name: 'Fixture', url: fixture.url, description: 'Renamed nothing', secret_kind: 'bearer', secret: '' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ has_secret: true, description: 'Renamed nothing', last_error: null });

    const wrong = await create({ name: 'Wrong secret', url: fixture.url, secret_kind: 'header', secret_header_name: 'x-api-key', secret: 'nope' });
    expect(wrong.status).toBe(424);
    expect(wrong.body.code).toBe('mcp_unauthorized');
    const saved = (await client.call('/admin/mcp-servers/', { token: admin })).body.items.find((row: { name: string }) => row.name === 'Wrong secret');
    expect(saved).toMatchObject({
      id: wrong.body.details.mcp_server_id,
      secret_kind: 'header',
      secret_header_name: 'x-api-key',
      has_secret: true,
      tool_count: 0,
    });
    expect(saved.last_error).toMatchObject({ code: 'mcp_unauthorized' });
    await client.call(`/admin/mcp-servers/${saved.id}/`, { method: 'DELETE', token: admin });
  });

  it('refreshes after the server changed its list: new tools come switched off, missing ones are marked gone and come back with their settings', async () => {
    const lookup = await toolNamed(serverId, 'lookup');
    expect((await setTool(serverId, lookup.id, { is_enabled: true, is_sensitive: true })).status).toBe(200);

    fixture.setTools(['translate', 'summarize']);
    const refreshed = await refresh(serverId);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ tool_count: 2, enabled_tool_count: 0 });
    const afterChange = (await tools(serverId)).body.items;
    expect(afterChange.map((tool: { name: string; is_gone: boolean }) => [tool.name, tool.is_gone])).toEqual([
      ['summarize', false],
      ['translate', false],
      ['lookup', true],
    ]);
    expect(afterChange.find((tool: { name: string }) => tool.name === 'summarize')).toMatchObject({ is_enabled: false });

    fixture.setTools(['lookup', 'translate', 'summarize']);
    // Two admins at once: one listing after the other, each tool once.
    const both = await Promise.all([refresh(serverId), refresh(serverId)]);
    for (const answer of both) expect(answer.body).toMatchObject({ tool_count: 3, enabled_tool_count: 1 });
    expect(await toolNamed(serverId, 'lookup')).toMatchObject({ is_gone: false, is_enabled: true, is_sensitive: true });
    const refreshes = await server.db.select().from(auditLog).where(eq(auditLog.action, 'mcp_server.refresh')).orderBy(auditLog.id);
    expect(refreshes.map((row) => row.changes)).toEqual([
      { name: 'Fixture', added: ['lookup', 'translate'], gone: [], returned: [] },
      { name: 'Fixture', added: ['summarize'], gone: ['lookup'], returned: [] },
      { name: 'Fixture', added: [], gone: [], returned: ['lookup'] },
    ]);
  });

  it('answers a 4xx and keeps the error for the screen when nothing answers, nothing answers in time, or something else answers', async () => {
    const closedPort = await freePort();
    const silent = await startNotMcpServer('silent');
    const html = await startNotMcpServer('html');
    closers.push(silent.close, html.close);
    const cases = [
      { name: 'Closed port', url: `http://127.0.0.1:${closedPort}/mcp`, code: 'mcp_unreachable' },
      { name: 'Silent', url: silent.url, code: 'mcp_timeout' },
      { name: 'Web page', url: html.url, code: 'mcp_protocol_error' },
    ];
    for (const { name, url, code } of cases) {
      const answer = await create({ name, url });
      expect(answer.status, name).toBe(424);
      expect(answer.body).toMatchObject({ code, message: expect.any(String) });
      const [row] = await server.db.select().from(mcpServers).where(eq(mcpServers.id, answer.body.details.mcp_server_id));
      expect(row).toMatchObject({ lastErrorCode: code, lastConnectedAt: null });
      // The same again through refresh, and the list shows it.
      expect((await refresh(row!.id)).body.code).toBe(code);
    }
    const listed = (await client.call('/admin/mcp-servers/?size=20', { token: admin })).body.items;
    expect(
      listed
        .filter((row: { last_error: { code: string } | null }) => row.last_error)
        .map((row: { last_error: { code: string } }) => row.last_error.code)
        .sort(),
    ).toEqual(['mcp_protocol_error', 'mcp_timeout', 'mcp_unreachable']);
  });

  it('refuses a private address the operator did not allow (422 destination_refused, nothing saved), and a taken name (409)', async () => {
    const before = (await client.call('/admin/mcp-servers/?size=50', { token: admin })).body.total_items;
    const refused = await create({ name: 'Intranet', url: 'http://10.1.2.3/mcp' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('destination_refused');
    expect((await create({ name: 'Fixture', url: fixture.url, secret_kind: 'bearer', secret: SECRET })).body.code).toBe('mcp_server_name_taken');
    expect((await client.call('/admin/mcp-servers/?size=50', { token: admin })).body.total_items).toBe(before);
  });

  it("keeps tenants apart: another tenant's admin neither sees nor changes this tenant's servers and tools", async () => {
    const acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    expect((await client.call('/admin/mcp-servers/', { token: acmeAdmin, tenant: 'acme' })).body.items).toEqual([]);
    expect((await tools(serverId, acmeAdmin, 'acme')).status).toBe(404);
    const lookup = await toolNamed(serverId, 'lookup');
    expect((await setTool(serverId, lookup.id, { is_enabled: false }, acmeAdmin, 'acme')).status).toBe(404);
    expect((await client.call(`/admin/mcp-servers/${serverId}/`, { method: 'DELETE', token: acmeAdmin, tenant: 'acme' })).status).toBe(404);
    // Nor may this tenant's admin give a tool to the other tenant's group.
    const [acmeGroup] = await server.db
      .select()
      .from(memberGroups)
      .innerJoin(tenants, eq(tenants.id, memberGroups.tenantId))
      .where(eq(tenants.subdomain, 'acme'));
    expect((await setTool(serverId, lookup.id, { member_group_ids: [acmeGroup!.member_groups.id] })).status).toBe(404);
    // And members are refused the console.
    expect((await client.call('/admin/mcp-servers/', { token: member })).status).toBe(403);
  });

  it('gives a member the tools enabled for one of their groups, and no tool that is off, of another group, or gone', async () => {
    const demoMember = await memberRow();
    const [defaultGroup] = await server.db
      .select()
      .from(memberGroups)
      .where(and(eq(memberGroups.tenantId, demoMember.tenantId), eq(memberGroups.isDefault, true)));
    const [otherGroup] = await server.db.insert(memberGroups).values({ tenantId: demoMember.tenantId, koName: '연구', enName: 'Research' }).returning();
    const [lookup, translate, summarize] = await Promise.all(['lookup', 'translate', 'summarize'].map((name) => toolNamed(serverId, name)));
    await setTool(serverId, lookup.id, { is_enabled: true, member_group_ids: [defaultGroup!.id] });
    await setTool(serverId, translate.id, { is_enabled: true, member_group_ids: [otherGroup!.id] });
    await setTool(serverId, summarize.id, { is_enabled: false, member_group_ids: [defaultGroup!.id, otherGroup!.id] });
    const usable = async () => (await memberMcpTools(server.db, demoMember)).map((tool) => tool.name);

    expect(await usable()).toEqual(['lookup']);
    expect((await memberMcpTools(server.db, demoMember))[0]).toMatchObject({ isSensitive: true, server: { id: serverId, name: 'Fixture' } });
    // Switched on for the member's group: offered at once.
    await setTool(serverId, summarize.id, { is_enabled: true });
    expect(await usable()).toEqual(['lookup', 'summarize']);
    // Switched off after being given: gone at once.
    await setTool(serverId, lookup.id, { is_enabled: false });
    expect(await usable()).toEqual(['summarize']);
    // No longer listed by its server: never offered, whatever its switches.
    fixture.setTools(['lookup', 'translate']);
    await refresh(serverId);
    expect(await usable()).toEqual([]);
    // Another tenant's member with the same email gets nothing of this tenant.
    expect(await memberMcpTools(server.db, await memberRow('acme'))).toEqual([]);
  });

  it('deletes a server with its tools', async () => {
    expect((await client.call(`/admin/mcp-servers/${serverId}/`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await tools(serverId)).status).toBe(404);
    expect(await memberMcpTools(server.db, await memberRow())).toEqual([]);
  });
});

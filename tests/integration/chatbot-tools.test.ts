import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberGroups, members, tenants } from '../../src/server/db/schema';
import { TOOL_STEP_LIMIT } from '../../src/shared/domain/mcp';
import { type FixtureMcpServer, startFixtureMcpServer } from '../fixtures/mcpServer';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON, checked by the assertions
type Json = any;

/**
 * A chatbot's tools (issue 24, "Chatbots with tools"): what the Studio's picker offers whom, what
 * a save may give a chatbot, and what the chatbot's answer says it has
 * (docs/decisions/0084-chatbot-tools.md).
 */
describe("a chatbot's tools", () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let fixture: FixtureMcpServer;
  const tokens = { member: '', admin: '', acme: '' };
  /** lookup: the member's default group; translate: another group only; summarize: the default group, but switched off. */
  const tool = { lookup: 0, translate: 0, summarize: 0 };
  let serverId: number;

  type Who = keyof typeof tokens;
  const call = (who: Who, path: string, method = 'GET', body?: unknown) =>
    api.call(path, { method, token: tokens[who], tenant: who === 'acme' ? 'acme' : undefined, ...(body === undefined ? {} : { body }) });
  const picker = async (who: Who) => {
    const listed = await call(who, '/tools/');
    expect(listed.status).toBe(200);
    return listed.body.items as Json[];
  };
  const setTool = (id: number, body: object) => call('admin', `/admin/mcp-servers/${serverId}/tools/${id}/`, 'PATCH', body);
  const newChatbot = async (who: Who = 'member') => {
    const created = await call(who, '/chatbots/', 'POST', { en_name: 'Tool user' });
    expect(created.status).toBe(200);
    return created.body as Json;
  };
  const save = (who: Who, id: number, body: object) => call(who, `/chatbots/${id}/`, 'PATCH', body);

  beforeAll(async () => {
    fixture = await startFixtureMcpServer({ tools: ['lookup', 'translate', 'summarize'] });
    server = await startTestServer({ extraTenants: ['acme'] });
    api = apiClient(server);
    tokens.member = (await api.signIn(DEMO_MEMBER)).access_token;
    tokens.admin = (await api.signIn(DEMO_ADMIN)).access_token;
    tokens.acme = (await api.signIn(DEMO_MEMBER, 'acme')).access_token;

    const created = await call('admin', '/admin/mcp-servers/', 'POST', { name: 'Fixture', url: fixture.url });
    expect(created.status).toBe(200);
    serverId = created.body.id;
    for (const row of (await call('admin', `/admin/mcp-servers/${serverId}/tools/`)).body.items as Json[]) tool[row.name as keyof typeof tool] = row.id;

    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    const [member] = await server.db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenant!.id), eq(members.email, DEMO_MEMBER.email)));
    const [defaultGroup] = await server.db
      .select()
      .from(memberGroups)
      .where(and(eq(memberGroups.tenantId, member!.tenantId), eq(memberGroups.isDefault, true)));
    const [otherGroup] = await server.db.insert(memberGroups).values({ tenantId: member!.tenantId, koName: '연구', enName: 'Research' }).returning();
    expect((await setTool(tool.lookup, { is_enabled: true, member_group_ids: [defaultGroup!.id] })).status).toBe(200);
    expect((await setTool(tool.translate, { is_enabled: true, member_group_ids: [otherGroup!.id] })).status).toBe(200);
    expect((await setTool(tool.summarize, { is_enabled: false, member_group_ids: [defaultGroup!.id] })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await fixture?.close();
  });

  it("offers a member the tools their groups may use, an admin every enabled tool, another tenant's member none", async () => {
    expect(await picker('member')).toEqual([{ id: tool.lookup, name: 'lookup', description: 'The lookup tool', server_name: 'Fixture', is_sensitive: false }]);
    expect((await picker('admin')).map((row) => row.name)).toEqual(['lookup', 'translate']);
    expect(await picker('acme')).toEqual([]);
  });

  it('saves the tools a member may pick and the step limit, and answers them on every read', async () => {
    const chatbot = await newChatbot();
    expect(chatbot).toMatchObject({ tool_ids: [], tool_step_limit: TOOL_STEP_LIMIT.default });
    const saved = await save('member', chatbot.id, { tool_ids: [tool.lookup], tool_step_limit: 3 });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ tool_ids: [tool.lookup], tool_step_limit: 3 });
    expect((await call('member', `/chatbots/${chatbot.id}/`)).body).toMatchObject({ tool_ids: [tool.lookup], tool_step_limit: 3 });
    const listed = (await call('member', '/chatbots/')).body.items.find((row: Json) => row.id === chatbot.id);
    expect(listed).toMatchObject({ tool_ids: [tool.lookup], tool_step_limit: 3 });
    // An empty list takes them all away.
    expect((await save('member', chatbot.id, { tool_ids: [] })).body.tool_ids).toEqual([]);
  });

  it("refuses a member a tool of another group, a switched-off one and another tenant's (403 tool_not_allowed), changing nothing", async () => {
    const chatbot = await newChatbot();
    for (const id of [tool.translate, tool.summarize]) {
      const refused = await save('member', chatbot.id, { tool_ids: [tool.lookup, id], en_name: 'Renamed' });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('tool_not_allowed');
    }
    expect((await call('member', `/chatbots/${chatbot.id}/`)).body).toMatchObject({ en_name: 'Tool user', tool_ids: [] });
    // The other tenant's member cannot give their chatbot this tenant's tool.
    const theirs = await newChatbot('acme');
    expect((await save('acme', theirs.id, { tool_ids: [tool.lookup] })).body.code).toBe('tool_not_allowed');
  });

  it("lets an admin give a default chatbot any enabled tool, and keeps it when a member's chatbot is re-saved by its author", async () => {
    const defaults = (await call('admin', '/chatbots/?include_default=true')).body.items.filter((row: Json) => row.is_default);
    expect(defaults.length).toBeGreaterThan(0);
    const saved = await save('admin', defaults[0].id, { tool_ids: [tool.lookup, tool.translate] });
    expect(saved.status).toBe(200);
    expect(saved.body.tool_ids).toEqual([tool.lookup, tool.translate].sort((a, b) => a - b));
    // Not even an admin gives a chatbot a tool that is switched off.
    expect((await save('admin', defaults[0].id, { tool_ids: [tool.summarize] })).body.code).toBe('tool_not_allowed');

    // The member's own chatbot, given translate by an admin: the member keeps it when they save, may drop it, and may not add it back.
    const chatbot = await newChatbot();
    expect((await save('admin', chatbot.id, { tool_ids: [tool.translate] })).status).toBe(200);
    const kept = await save('member', chatbot.id, { tool_ids: [tool.translate, tool.lookup] });
    expect(kept.status).toBe(200);
    expect(kept.body.tool_ids).toEqual([tool.lookup, tool.translate].sort((a, b) => a - b));
    expect((await save('member', chatbot.id, { tool_ids: [tool.lookup] })).body.tool_ids).toEqual([tool.lookup]);
    expect((await save('member', chatbot.id, { tool_ids: [tool.lookup, tool.translate] })).body.code).toBe('tool_not_allowed');
  });

  it('refuses a step limit out of its bounds, a repeated tool and too many tools (400 validation_error, like every body the contract refuses)', async () => {
    const chatbot = await newChatbot();
    for (const body of [
      { tool_step_limit: TOOL_STEP_LIMIT.min - 1 },
      { tool_step_limit: TOOL_STEP_LIMIT.max + 1 },
      { tool_step_limit: 2.5 },
      { tool_ids: [tool.lookup, tool.lookup] },
      { tool_ids: Array.from({ length: 21 }, (_, index) => index + 1) },
    ]) {
      const refused = await save('member', chatbot.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe('validation_error');
    }
    expect((await save('member', chatbot.id, { tool_step_limit: TOOL_STEP_LIMIT.max })).body.tool_step_limit).toBe(TOOL_STEP_LIMIT.max);
  });

  it('takes a tool out of the picker once it is switched off, while the chatbot keeps it for when it comes back', async () => {
    const chatbot = await newChatbot();
    expect((await save('member', chatbot.id, { tool_ids: [tool.lookup] })).status).toBe(200);
    expect((await setTool(tool.lookup, { is_enabled: false })).status).toBe(200);
    expect(await picker('member')).toEqual([]);
    expect((await picker('admin')).map((row) => row.name)).toEqual(['translate']);
    expect((await call('member', `/chatbots/${chatbot.id}/`)).body.tool_ids).toEqual([tool.lookup]);
    expect((await setTool(tool.lookup, { is_enabled: true })).status).toBe(200);
    expect((await picker('member')).map((row) => row.name)).toEqual(['lookup']);
  });
});

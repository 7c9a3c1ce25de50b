import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, llmModels, memberGroups } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('model permissions', () => {
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  const model = async (name: string) => (await server.db.select().from(llmModels).where(eq(llmModels.name, name)))[0]!;
  const chatbotId = async (enName: string) => (await server.db.select({ id: chatbots.id }).from(chatbots).where(eq(chatbots.enName, enName)))[0]!.id;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['acme'] });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
  });
  afterAll(() => server?.close());

  const matrix = async () => (await client.call('/admin/llm-models/', { token: admin })).body;
  const toggle = (modelId: number, groupId: number, isAvailable: boolean, token = admin, tenant?: string) =>
    client.call(`/admin/llm-models/${modelId}/member-groups/${groupId}/`, { method: 'PATCH', body: { is_available: isAvailable }, token, tenant });
  const chat = async (id: number) => {
    const response = await fetch(`${server.apiBase}/chatbots/${id}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': member },
      body: JSON.stringify({ text: 'Hello' }),
    });
    const text = await response.text();
    return { status: response.status, code: response.ok ? null : (JSON.parse(text) as { code: string }).code };
  };

  it('shows the admin every model with the groups that may use it, the unlimited one in every group', async () => {
    const { models, groups } = await matrix();
    expect(groups).toEqual([expect.objectContaining({ en_name: 'Default group', is_default: true })]);
    const groupId = groups[0].id;
    expect(models.map((row: { name: string }) => row.name).sort()).toEqual(['balanced-pro', 'deep-reasoner', 'swift-lite']);
    for (const row of models) expect(row.available_group_ids).toEqual([groupId]);
    expect(models.find((row: { name: string }) => row.name === 'swift-lite')).toMatchObject({ is_unlimited: true, provider: 'demo', chatbot_allowed: true });
  });

  it('switching a model off for the group refuses chats with it (403) at once, and the member list and Studio stop offering it', async () => {
    const deep = await model('deep-reasoner');
    const [group] = (await matrix()).groups;
    const writingCoach = await chatbotId('Writing Coach');
    expect((await chat(writingCoach)).status).toBe(200);

    expect(await toggle(deep.id, group.id, false)).toMatchObject({ status: 200, body: { model_id: deep.id, member_group_id: group.id, is_available: false } });
    expect(await chat(writingCoach)).toEqual({ status: 403, code: 'model_not_allowed' });
    const offered = (await client.call('/llm-models/?for_chatbot=true', { token: member })).body.items.map((row: { name: string }) => row.name);
    expect(offered).not.toContain('deep-reasoner');
    expect((await matrix()).models.find((row: { id: number }) => row.id === deep.id).available_group_ids).toEqual([]);

    expect((await toggle(deep.id, group.id, true)).status).toBe(200);
    expect((await chat(writingCoach)).status).toBe(200);
    expect((await client.call('/llm-models/', { token: member })).body.items.map((row: { name: string }) => row.name)).toContain('deep-reasoner');
  });

  it('tells the member before they type that a chatbot’s model is off for their group: the Store list, the chatbot and the recents say is_available false', async () => {
    const [group] = (await matrix()).groups;
    // A chatbot published to the Store on the model of the demo's General Assistant, which the
    // member opened from there (so it is among the recent ones too).
    const [assistant] = await server.db.select().from(chatbots).where(eq(chatbots.hashId, 'demo-default-1'));
    const pro = { id: assistant!.llmModelId };
    const [published] = await server.db
      .insert(chatbots)
      .values({
        tenantId: assistant!.tenantId,
        hashId: 'demo-store-1',
        enName: 'Store Planner',
        koName: '스토어 플래너',
        llmModelId: pro.id,
        isPublic: true,
        publishStatus: 'approved',
      })
      .returning({ id: chatbots.id });
    const storeChatbot = published!.id;
    expect((await client.call(`/chatbots/${storeChatbot}/relations/`, { method: 'POST', token: member })).status).toBe(200);
    const availability = async () => {
      const find = async (query: string) =>
        (await client.call(`/chatbots/${query}`, { token: member })).body.items.find((row: { id: number }) => row.id === storeChatbot)?.llm_model.is_available;
      const single = (await client.call(`/chatbots/${storeChatbot}/`, { token: member })).body.llm_model.is_available;
      return { store: await find('?size=30'), recent: await find('?recent=true'), single };
    };
    expect(await availability()).toEqual({ store: true, recent: true, single: true });

    await toggle(pro.id, group.id, false);
    expect(await availability()).toEqual({ store: false, recent: false, single: false });
    // What the flag announces is what a send meets.
    expect(await chat(storeChatbot)).toEqual({ status: 403, code: 'model_not_allowed' });
    // Chatbots on the other models stay available.
    const listed = (await client.call('/chatbots/?include_default=true&size=30', { token: member })).body.items as {
      llm_model: { id: number; is_available: boolean };
    }[];
    expect(listed.filter((row) => row.llm_model.id !== pro.id).every((row) => row.llm_model.is_available)).toBe(true);

    await toggle(pro.id, group.id, true);
    expect(await availability()).toEqual({ store: true, recent: true, single: true });
  });

  it('keeps the unlimited model on for every group: switching it off is 422 model_locked', async () => {
    const lite = await model('swift-lite');
    const [group] = (await matrix()).groups;
    expect(await toggle(lite.id, group.id, false)).toMatchObject({ status: 422, body: { code: 'model_locked' } });
    expect((await toggle(lite.id, group.id, true)).status).toBe(200);
  });

  it('leaves models kept out of chatbots out of the Studio list only', async () => {
    const pro = await model('balanced-pro');
    await server.db.update(llmModels).set({ chatbotAllowed: false }).where(eq(llmModels.id, pro.id));
    const names = async (query: string) => (await client.call(`/llm-models/${query}`, { token: member })).body.items.map((row: { name: string }) => row.name);
    expect(await names('?for_chatbot=true')).not.toContain('balanced-pro');
    expect(await names('')).toContain('balanced-pro');
    const draft = (await client.call('/chatbots/', { method: 'POST', token: member })).body;
    expect((await client.call(`/chatbots/${draft.id}/`, { method: 'PATCH', body: { llm_model_id: pro.id }, token: member })).body.code).toBe(
      'model_not_allowed',
    );
    await server.db.update(llmModels).set({ chatbotAllowed: true }).where(eq(llmModels.id, pro.id));
  });

  it("refuses members (403), and another tenant's model or group ids (404)", async () => {
    const deep = await model('deep-reasoner');
    const [group] = (await matrix()).groups;
    expect((await client.call('/admin/llm-models/', { token: member })).status).toBe(403);
    expect((await toggle(deep.id, group.id, false, member)).status).toBe(403);
    expect((await toggle(deep.id, group.id, false, acmeAdmin, 'acme')).status).toBe(404);
    // The acme tenant's default group, named by the demo tenant's admin.
    const groups = await server.db.select({ id: memberGroups.id }).from(memberGroups);
    const foreignGroup = groups.find((row) => row.id !== group.id)!.id;
    expect((await toggle(deep.id, foreignGroup, false)).status).toBe(404);
    expect((await toggle(999_999, group.id, false)).status).toBe(404);
  });
});

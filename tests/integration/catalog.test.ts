import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatbotCategories,
  chatbotMemberGroups,
  chatbots,
  llmModels,
  memberGroupLinks,
  memberGroups,
  members,
  recentChatbots,
  tenants,
} from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let memberToken: string;
let memberId: number;
let adminToken: string;
let adminId: number;
let tenantId: number;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
  ({
    access_token: memberToken,
    member: { id: memberId },
  } = await api.signIn(DEMO_MEMBER));
  ({
    access_token: adminToken,
    member: { id: adminId },
  } = await api.signIn(DEMO_ADMIN));
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  tenantId = tenant!.id;
});
afterAll(() => server?.close());

describe('GET /tenants/', () => {
  it('answers the branding and plan flags without a token, with a logo the server serves', async () => {
    const result = await api.call('/tenants/');
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ subdomain: 'demo', tenant_name: 'demo workspace', plan: { is_low_llm_free: true } });
    const logo = await fetch(`${server.url}${result.body.logo_url}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toMatch(/image\/svg\+xml/);
  });
});

describe('GET /categories/', () => {
  it('lists the six categories of the spec with Korean and English names', async () => {
    const result = await api.call('/categories/', { token: memberToken });
    expect(result.body.items.map((c: { en_name: string }) => c.en_name)).toEqual([
      'Writing',
      'Productivity',
      'Research & Analysis',
      'Education',
      'Lifestyle',
      'Programming',
    ]);
    expect(result.body.items[0].ko_name).toBe('글쓰기');
  });
});

describe('GET /chatbots/', () => {
  it('puts the three default chatbots first with include_default, one on the unlimited low-cost model', async () => {
    const result = await api.call('/chatbots/?include_default=true&size=30', { token: memberToken });
    expect(result.status).toBe(200);
    const defaults = result.body.items.filter((bot: { is_default: boolean }) => bot.is_default);
    expect(defaults).toHaveLength(3);
    expect(result.body.items.slice(0, 3).every((bot: { is_default: boolean }) => bot.is_default)).toBe(true);
    const lowCost = defaults.filter((bot: { llm_model: { is_low_llm: boolean } }) => bot.llm_model.is_low_llm);
    expect(lowCost).toHaveLength(1);
    expect(lowCost[0].llm_model).toMatchObject({ is_available: true, context_limit: expect.any(Number), release_date: expect.any(String) });
    expect(defaults[0]).toMatchObject({
      ko_name: expect.any(String),
      en_key_features: expect.any(String),
      categories: [expect.objectContaining({ en_name: expect.any(String) })],
    });
  });

  it('leaves defaults out without include_default and filters by search, public flag and category', async () => {
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.tenantId, tenantId)).limit(1);
    const [published] = await server.db
      .insert(chatbots)
      .values({
        tenantId,
        hashId: 'store-travel',
        enName: 'Travel Planner',
        koName: '여행 플래너',
        llmModelId: model!.id,
        creatorId: adminId,
        isPublic: true,
        publishStatus: 'approved',
      })
      .returning();
    await server.db
      .insert(chatbots)
      .values({ tenantId, hashId: 'admin-draft', enName: 'Admin Draft', koName: '관리자 초안', llmModelId: model!.id, creatorId: adminId });
    const lifestyle = (await api.call('/categories/', { token: memberToken })).body.items.find((c: { en_name: string }) => c.en_name === 'Lifestyle');
    await server.db.insert(chatbotCategories).values({ tenantId, chatbotId: published!.id, categoryId: lifestyle.id });

    const store = await api.call('/chatbots/?is_public=true', { token: memberToken });
    expect(store.body.items.map((bot: { en_name: string }) => bot.en_name)).toEqual(['Travel Planner']);
    expect(store.body.items[0].creator).toEqual({ id: adminId, name: 'Demo Admin' });

    const search = await api.call(`/chatbots/?include_default=true&search_term=${encodeURIComponent('여행')}`, { token: memberToken });
    expect(search.body.items.map((bot: { hash_id: string }) => bot.hash_id)).toEqual(['store-travel']);

    const byCategory = await api.call(`/chatbots/?include_default=true&category_id=${lifestyle.id}`, { token: memberToken });
    expect(byCategory.body.items.map((bot: { en_name: string }) => bot.en_name).sort()).toEqual(['Quick Helper', 'Travel Planner']);

    // The admin's private draft is visible to the admin only.
    const memberView = await api.call('/chatbots/', { token: memberToken });
    const adminView = await api.call('/chatbots/', { token: adminToken });
    expect(memberView.body.items.map((bot: { hash_id: string }) => bot.hash_id)).not.toContain('admin-draft');
    expect(adminView.body.items.map((bot: { hash_id: string }) => bot.hash_id)).toContain('admin-draft');
  });

  it('shows a chatbot restricted to a member group only to members of that group', async () => {
    const [group] = await server.db.insert(memberGroups).values({ tenantId, koName: '연구팀', enName: 'Research team' }).returning();
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.tenantId, tenantId)).limit(1);
    const [restricted] = await server.db
      .insert(chatbots)
      .values({ tenantId, hashId: 'research-only', enName: 'Research Bot', koName: '연구 봇', llmModelId: model!.id, isDefault: true })
      .returning();
    await server.db.insert(chatbotMemberGroups).values({ tenantId, chatbotId: restricted!.id, memberGroupId: group!.id });

    const list = await api.call('/chatbots/?include_default=true', { token: memberToken });
    expect(list.body.items.map((bot: { hash_id: string }) => bot.hash_id)).not.toContain('research-only');
    expect((await api.call(`/chatbots/${restricted!.id}/`, { token: memberToken })).status).toBe(404);

    // member_id (spec §7): an admin of the group lists what the member sees, which leaves it out.
    await server.db.insert(memberGroupLinks).values({ tenantId, memberId: adminId, memberGroupId: group!.id });
    const hashes = async (query: string, token: string) =>
      (await api.call(`/chatbots/?include_default=true${query}`, { token })).body.items.map((bot: { hash_id: string }) => bot.hash_id);
    expect(await hashes('', adminToken)).toContain('research-only');
    expect(await hashes(`&member_id=${memberId}`, adminToken)).not.toContain('research-only');
    expect(await hashes(`&member_id=${memberId}`, memberToken)).toEqual(await hashes('', memberToken));
    // A member may not look through someone else's eyes; an unknown member is 404.
    expect((await api.call(`/chatbots/?member_id=${adminId}`, { token: memberToken })).status).toBe(403);
    expect((await api.call('/chatbots/?member_id=999999', { token: adminToken })).status).toBe(404);
    await server.db.delete(memberGroupLinks).where(and(eq(memberGroupLinks.memberId, adminId), eq(memberGroupLinks.memberGroupId, group!.id)));
  });

  it('paginates with page and size', async () => {
    const page = await api.call('/chatbots/?include_default=true&size=2&page=2', { token: memberToken });
    expect(page.body).toMatchObject({ page: 2, page_size: 2 });
    expect(page.body.items).toHaveLength(2);
    expect(page.body.total_pages).toBe(Math.ceil(page.body.total_items / 2));
  });

  it('answers 400 for a malformed query', async () => {
    const result = await api.call('/chatbots/?order_by=nonsense', { token: memberToken });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('validation_error');
  });
});

describe('GET /chatbots/{id}/', () => {
  it('returns a visible chatbot and 404 for an unknown id', async () => {
    const first = (await api.call('/chatbots/?include_default=true', { token: memberToken })).body.items[0];
    const one = await api.call(`/chatbots/${first.id}/`, { token: memberToken });
    expect(one.body).toEqual(first);
    expect((await api.call('/chatbots/987654/', { token: memberToken })).status).toBe(404);
  });
});

describe('GET|PATCH /members/{id}/', () => {
  it('reads and updates the own record', async () => {
    const me = await api.call(`/members/${memberId}/`, { token: memberToken });
    expect(me.body).toMatchObject({
      id: memberId,
      email: DEMO_MEMBER.email,
      is_admin: false,
      member_type: 'organization',
      sso_platform_id: null,
      has_password: true,
    });
    // Every custom field of the tenant, with the member's value (none yet for the demo member).
    expect(me.body.custom_fields.map((field: { field_name: string; value: string | null }) => [field.field_name, field.value])).toEqual([
      ['Department', null],
      ['Employee number', null],
    ]);
    const patched = await api.call(`/members/${memberId}/`, { method: 'PATCH', token: memberToken, body: { language: 'ja' } });
    expect(patched.status).toBe(200);
    expect(patched.body.language).toBe('ja');
    const [row] = await server.db.select().from(members).where(eq(members.id, memberId));
    expect(row?.language).toBe('ja');
  });

  it('refuses another member’s record to a member, allows it to an admin, and refuses editing others', async () => {
    expect((await api.call(`/members/${adminId}/`, { token: memberToken })).status).toBe(403);
    expect((await api.call(`/members/${memberId}/`, { token: adminToken })).status).toBe(200);
    expect((await api.call(`/members/${memberId}/`, { method: 'PATCH', token: adminToken, body: { language: 'es' } })).status).toBe(403);
    expect((await api.call(`/members/${memberId}/`, { method: 'PATCH', token: memberToken, body: { language: 'xx' } })).status).toBe(400);
  });
});

describe('GET /members/{id}/credit-check/', () => {
  it('reports the member quota and the tenant balance, both reduced by usage', async () => {
    const check = await api.call(`/members/${memberId}/credit-check/`, { token: memberToken });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ remaining_credit: 5000, tenant: { remaining_credit: 100_000 } });

    const bot = (await api.call('/chatbots/?include_default=true', { token: memberToken })).body.items.find(
      (b: { llm_model: { is_low_llm: boolean } }) => !b.llm_model.is_low_llm,
    );
    const chat = await fetch(`${server.apiBase}/chatbots/${bot.id}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': memberToken },
      body: JSON.stringify({ text: 'spend a little' }),
    });
    await chat.text();
    const after = await api.call(`/members/${memberId}/credit-check/`, { token: memberToken });
    expect(after.body.remaining_credit).toBeLessThan(5000);
    expect(after.body.tenant.remaining_credit).toBeLessThan(100_000);
    expect(5000 - after.body.remaining_credit).toBeCloseTo(100_000 - after.body.tenant.remaining_credit, 6);
  });
});

describe('recent chatbots', () => {
  it('keeps the three most recently used non-default chatbots of the member', async () => {
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.tenantId, tenantId)).limit(1);
    const bots = await server.db
      .insert(chatbots)
      .values([1, 2, 3, 4].map((n) => ({ tenantId, hashId: `recent-${n}`, enName: `Recent ${n}`, koName: `최근 ${n}`, llmModelId: model!.id, isPublic: true })))
      .returning();
    for (const bot of bots) {
      const response = await fetch(`${server.apiBase}/chatbots/${bot.id}/chat/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': memberToken },
        body: JSON.stringify({ text: 'hi' }),
      });
      await response.text();
    }
    const recent = await server.db.select().from(recentChatbots).where(eq(recentChatbots.memberId, memberId));
    expect(recent.map((row) => row.chatbotId).sort()).toEqual(
      bots
        .slice(1)
        .map((bot) => bot.id)
        .sort(),
    );
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, llmModels, memberGroups, members, plans, tenants } from '../../src/server/db/schema';
import { assertCreditLeft, grantTenantCredits, messageCost } from '../../src/server/domains/credits/service';
import { displayCredits } from '../../src/shared/domain/credits';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, jsonBody, readFrames } from './helpers/client';

let upstream: FakeLlmUpstream;
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;
let adminToken: string;
let memberId: number;
let adminId: number;
let tenant: typeof tenants.$inferSelect;
let groupId: number;
let paidChatbot: number;
let lowTierChatbot: number;

/** balanced-pro: 3 credits per 10K input tokens, 12 per 10K output. */
const USAGE = { prompt_tokens: 12_345, completion_tokens: 678 };
const PER_MESSAGE = (12_345 / 10_000) * 3 + (678 / 10_000) * 12; // 4.5171

function send(chatbotId: number, text: string) {
  return fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify({ text }),
  });
}

async function refused(chatbotId: number): Promise<{ status: number; code: string; depletion?: string }> {
  const response = await send(chatbotId, 'Hello');
  if (response.status === 200) {
    await response.text();
    return { status: 200, code: '' };
  }
  const body = await jsonBody(response);
  return { status: response.status, code: body.code, depletion: body.details?.depletion };
}

const usage = async (id = memberId, as = token) => api.call(`/members/${id}/usage/`, { token: as });
const setMember = (values: Partial<typeof members.$inferInsert>) => server.db.update(members).set(values).where(eq(members.id, memberId));
const setPlanPrice = (price: number) => server.db.update(plans).set({ krwMonthPrice: price }).where(eq(plans.id, tenant.planId!));

beforeAll(async () => {
  upstream = await startFakeLlmUpstream({ usage: USAGE });
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl } });
  api = apiClient(server);
  const member = await api.signIn(DEMO_MEMBER);
  token = member.access_token;
  memberId = member.member.id;
  const admin = await api.signIn(DEMO_ADMIN);
  adminToken = admin.access_token;
  adminId = admin.member.id;
  [tenant] = (await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'))) as [typeof tenants.$inferSelect];
  const [row] = await server.db.select().from(members).where(eq(members.id, memberId));
  groupId = row!.defaultMemberGroupId!;
  const list = await api.call('/chatbots/?include_default=true', { token });
  const byName = (name: string) => list.body.items.find((bot: { en_name: string }) => bot.en_name === name);
  paidChatbot = byName('General Assistant').id;
  const quick = byName('Quick Helper');
  expect(quick.llm_model).toMatchObject({ is_low_llm: true, is_unlimited: true });
  lowTierChatbot = quick.id;
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});
afterEach(async () => {
  await setMember({ creditQuota: null, memberType: 'organization' });
  await setPlanPrice(99_000);
  await server.db.update(tenants).set({ isLowLlmFree: true }).where(eq(tenants.id, tenant.id));
  await server.db.update(memberGroups).set({ creditQuota: 50_000 }).where(eq(memberGroups.id, groupId));
  upstream.setBehaviour({ chunks: DEFAULT_FAKE_CHUNKS, delayMs: 0, usage: USAGE });
});

describe('GET /members/{id}/usage/', () => {
  it('gives the exact figures of the limit that runs out first, the average cost and the messages left', async () => {
    const fresh = await usage();
    expect(fresh.status).toBe(200);
    // Default group: 5,000 per member a month, 50,000 for the group; nothing used yet.
    expect(fresh.body).toMatchObject({
      limited_by: 'member',
      quota: 5000,
      usage: 0,
      remaining: 5000,
      percentage_used: 0,
      depleted: false,
      message_count: 0,
      average_message_cost: null,
      estimated_messages_left: null,
      models: [],
    });
    expect(fresh.body.period_start).toMatch(/^\d{4}-\d{2}-01$/);
    expect(fresh.body.period_end.slice(0, 7)).toBe(fresh.body.period_start.slice(0, 7));

    for (const text of ['one', 'two']) {
      const answer = await send(paidChatbot, text);
      expect(answer.status).toBe(200);
      await answer.text();
    }
    const low = await send(lowTierChatbot, 'three');
    expect((await readFrames(low)).find((frame) => frame.type === 'usage').credits).toBe(0);

    await setMember({ creditQuota: 12 });
    const { body } = await usage();
    expect(body.limited_by).toBe('member');
    expect(body.quota).toBe(12);
    expect(body.usage).toBeCloseTo(2 * PER_MESSAGE, 6);
    expect(body.remaining).toBeCloseTo(12 - 2 * PER_MESSAGE, 6);
    expect(body.percentage_used).toBeCloseTo(((2 * PER_MESSAGE) / 12) * 100, 6);
    expect(body.message_count).toBe(2);
    expect(body.average_message_cost).toBeCloseTo(PER_MESSAGE, 6);
    expect(body.estimated_messages_left).toBe(0); // 2.97 left, 4.52 a message
    expect(body.depletion_kind).toBe('team');
    expect(body.models).toEqual([
      { model_name: 'balanced-pro', messages: 2, credits: expect.closeTo(2 * PER_MESSAGE, 6) },
      { model_name: 'swift-lite', messages: 1, credits: 0 },
    ]);
    // Shown rounded down (spec §9): 9.03 used of 12, 2.97 left, 75.28 %.
    expect([displayCredits(body.usage), displayCredits(body.remaining), displayCredits(body.percentage_used)]).toEqual([9, 2, 75]);

    // With room for 30 more messages the estimate follows the average.
    await setMember({ creditQuota: 2 * PER_MESSAGE + 30.5 * PER_MESSAGE });
    expect((await usage()).body.estimated_messages_left).toBe(30);
  });

  it('names the group when its monthly quota is the smaller remainder, and the tenant pool when it is spent', async () => {
    const before = (await usage()).body.usage;
    await server.db
      .update(memberGroups)
      .set({ creditQuota: before + 1 })
      .where(eq(memberGroups.id, groupId));
    expect((await usage()).body).toMatchObject({ limited_by: 'group', quota: expect.closeTo(before + 1, 6), remaining: expect.closeTo(1, 6) });

    const pool = (await api.call(`/members/${memberId}/credit-check/`, { token })).body.tenant.remaining_credit;
    await grantTenantCredits(server.db, tenant.id, -pool, { koName: '차감', enName: 'Spent' });
    try {
      expect((await usage()).body).toMatchObject({
        limited_by: 'tenant',
        remaining: expect.closeTo(0, 6),
        percentage_used: expect.closeTo(100, 6),
        depleted: true,
        depletion_kind: 'tenant',
      });
    } finally {
      await grantTenantCredits(server.db, tenant.id, pool, { koName: '복구', enName: 'Restored' });
    }
  });

  it('is readable by the member themselves and by an admin of the tenant, by no other member', async () => {
    expect((await usage(adminId, token)).status).toBe(403);
    expect((await usage(memberId, adminToken)).status).toBe(200);
    expect((await usage(999_999, adminToken)).status).toBe(404);
    expect((await api.call(`/members/${memberId}/usage/`)).status).toBe(401);
  });
});

describe('402 credits_depleted and its message', () => {
  it('an organisation member over their own monthly quota gets the team message; the unlimited low-tier model still answers', async () => {
    await setMember({ creditQuota: 0 });
    expect(await refused(paidChatbot)).toEqual({ status: 402, code: 'credits_depleted', depletion: 'team' });
    const low = await send(lowTierChatbot, 'Still there?');
    expect(low.status).toBe(200);
    expect((await readFrames(low)).find((frame) => frame.type === 'usage').credits).toBe(0);
    expect((await usage()).body).toMatchObject({ depleted: true, depletion_kind: 'team' });
  });

  it('without is_low_llm_free the low-tier model is refused as well', async () => {
    await setMember({ creditQuota: 0 });
    await server.db.update(tenants).set({ isLowLlmFree: false }).where(eq(tenants.id, tenant.id));
    expect(await refused(lowTierChatbot)).toMatchObject({ status: 402, depletion: 'team' });
  });

  it('the group quota spent is the team message', async () => {
    const used = (await usage()).body.usage;
    await server.db.update(memberGroups).set({ creditQuota: used }).where(eq(memberGroups.id, groupId));
    // The member's own quota is not the limit here: a group-wide allocation ran out.
    expect((await usage()).body.limited_by).toBe('group');
    expect(await refused(paidChatbot)).toMatchObject({ status: 402, depletion: 'team' });
  });

  it('an individual gets the individual message, or the free plan one on a free plan', async () => {
    await setMember({ creditQuota: 0, memberType: 'individual' });
    expect(await refused(paidChatbot)).toMatchObject({ status: 402, depletion: 'individual' });
    await setPlanPrice(0);
    expect(await refused(paidChatbot)).toMatchObject({ status: 402, depletion: 'free_plan' });
  });

  it("the tenant's pool spent is the tenant message, or the free plan one on a free plan", async () => {
    const pool = (await api.call(`/members/${memberId}/credit-check/`, { token })).body.tenant.remaining_credit;
    await grantTenantCredits(server.db, tenant.id, -pool, { koName: '차감', enName: 'Spent' });
    try {
      expect(await refused(paidChatbot)).toMatchObject({ status: 402, depletion: 'tenant' });
      await setPlanPrice(0);
      expect(await refused(paidChatbot)).toMatchObject({ status: 402, depletion: 'free_plan' });
    } finally {
      await grantTenantCredits(server.db, tenant.id, pool, { koName: '복구', enName: 'Restored' });
    }
    expect((await refused(paidChatbot)).status).toBe(200);
  });

  it('a paid model that costs nothing is refused too, with the same message', async () => {
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.name, 'balanced-pro'));
    await server.db.update(llmModels).set({ inputCostPer10k: 0, outputCostPer10k: 0 }).where(eq(llmModels.id, model!.id));
    try {
      expect((await refused(paidChatbot)).status).toBe(200);
      await setMember({ creditQuota: 0 });
      expect(await refused(paidChatbot)).toMatchObject({ status: 402, depletion: 'team' });
    } finally {
      await server.db
        .update(llmModels)
        .set({ inputCostPer10k: model!.inputCostPer10k, outputCostPer10k: model!.outputCostPer10k })
        .where(eq(llmModels.id, model!.id));
    }
  });

  it("a send paid from the chatbot creator's credits names the creator", async () => {
    await setMember({ creditQuota: 0 });
    const [row] = await server.db.select().from(members).where(eq(members.id, memberId));
    await expect(assertCreditLeft(server.db, row!, { billedToCreator: true })).rejects.toMatchObject({
      status: 402,
      details: { depletion: 'chatbot_creator' },
    });
  });
});

describe('what a send may cost (DESIGN §7)', () => {
  it('asks the model for at most its output limit, cuts the answer the credits left cannot pay for, and never charges more than the reservation', async () => {
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.name, 'balanced-pro'));
    // Long answers (3,000 output tokens), as in the issue that found members overspending their limit.
    upstream.setBehaviour({ chunks: Array.from({ length: 3000 }, (_, i) => `t${i} `), usage: { prompt_tokens: 20, completion_tokens: 3000 } });
    const { body: before } = await usage();
    expect(before.limited_by).toBe('member');
    const LIMIT = 10;
    await setMember({ creditQuota: before.usage + LIMIT });
    const firstRequest = upstream.requests.length;

    const sends = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const response = await send(paidChatbot, 'Tell me everything.');
        return response.status === 200
          ? { status: 200, frames: await readFrames(response) }
          : { status: response.status, code: (await jsonBody(response)).code };
      }),
    );
    const answered = sends.filter((outcome) => outcome.status === 200);
    expect(sends.every((outcome) => outcome.status === 200 || outcome.code === 'credits_depleted')).toBe(true);
    expect(answered.length).toBeGreaterThan(0);

    // Every call names its output limit: the model's own, or less when the credits left pay for less.
    const calls = upstream.requests.slice(firstRequest);
    expect(calls.every((call) => call.body.max_tokens !== undefined && call.body.max_tokens <= model!.maxOutputTokens)).toBe(true);
    const cut = calls.filter((call) => call.body.max_tokens! < model!.maxOutputTokens);
    expect(cut.length).toBeGreaterThan(0);
    // An answer the credits cut short ends with finish reason length.
    const ends = answered.map((outcome) => outcome.frames!.find((frame) => frame.type === 'end').finish_reason);
    expect(ends).toContain('length');

    // Charged at most the limit plus less than one reservation (the concurrent overshoot), and no
    // settlement ever took more than its reservation.
    const fullReservation = messageCost(model!, { inputTokens: 10, outputTokens: model!.maxOutputTokens });
    const charged = answered.reduce((sum, outcome) => sum + outcome.frames!.find((frame) => frame.type === 'usage').credits, 0);
    expect(charged).toBeLessThan(LIMIT + fullReservation);
    expect((await usage()).body.remaining).toBeGreaterThan(-fullReservation);
    const settlements = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, memberId), eq(creditLedger.kind, 'settlement')));
    expect(settlements.every((row) => row.amount >= 0)).toBe(true);
  });
});

describe('PATCH /admin/members/bulk/', () => {
  it("sets members' monthly credit limit, which the next send is checked against", async () => {
    const set = await api.call('/admin/members/bulk/', { method: 'PATCH', token: adminToken, body: { member_ids: [memberId, 999_999], credit_quota: 0 } });
    expect(set).toMatchObject({ status: 200, body: { updated: 1 } });
    expect((await usage()).body).toMatchObject({ quota: 0, depleted: true });
    expect((await refused(paidChatbot)).status).toBe(402);
    const reset = await api.call('/admin/members/bulk/', { method: 'PATCH', token: adminToken, body: { member_ids: [memberId], credit_quota: null } });
    expect(reset.body.updated).toBe(1);
    expect((await usage()).body.quota).toBe(5000);
  });

  it('is for admins only and refuses a negative limit', async () => {
    expect((await api.call('/admin/members/bulk/', { method: 'PATCH', token, body: { member_ids: [memberId], credit_quota: 100 } })).status).toBe(403);
    expect((await api.call('/admin/members/bulk/', { method: 'PATCH', token: adminToken, body: { member_ids: [memberId], credit_quota: -1 } })).status).toBe(
      400,
    );
  });
});

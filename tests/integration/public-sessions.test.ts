import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, llmModels, members, sessions, tenants, usageRecords } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;
let adminToken: string;
let adminId: number;
let tenantId: number;
let defaultChatbotId: number;
let publicChatbotId: number;

/** The member's chat with a chatbot they see (the embedded demo model answers). */
async function memberChat(text: string) {
  const response = await fetch(`${server.apiBase}/chatbots/${defaultChatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify({ text }),
  });
  expect(response.status).toBe(200);
  await readFrames(response);
  return JSON.parse(response.headers.get('x-chat-meta')!).session_hash_id as string;
}

/** A signed-out visitor's send, with the token value spec §6 gives public paths. */
function visitorChat(chatbotId: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${server.apiBase}/public/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': 'public', ...headers },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['other'] });
  api = apiClient(server);
  token = (await api.signIn(DEMO_MEMBER)).access_token;
  ({ access_token: adminToken, member: { id: adminId } } = await api.signIn(DEMO_ADMIN));
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  tenantId = tenant!.id;
  defaultChatbotId = (await api.call('/chatbots/?include_default=true', { token })).body.items[0].id;
  // A chatbot the admin made and published, on a paid model (so the creator's credits matter).
  const [paid] = await server.db.select().from(llmModels).where(and(eq(llmModels.tenantId, tenantId), eq(llmModels.name, 'balanced-pro')));
  const [published] = await server.db
    .insert(chatbots)
    .values({ tenantId, hashId: 'public-travel', enName: 'Travel Planner', koName: '여행 플래너', llmModelId: paid!.id, creatorId: adminId, isPublic: true, publishStatus: 'approved' })
    .returning();
  publicChatbotId = published!.id;
});
afterAll(() => server?.close());

describe('sharing a session', () => {
  it('answers 404 on the public paths while the session is private, signed in or not', async () => {
    const hash = await memberChat('A private question');
    for (const headers of [{}, { 'x-access-token': 'public' }, { 'x-access-token': token }] as Record<string, string>[]) {
      expect((await api.call(`/public/sessions/${hash}/`, { headers })).status).toBe(404);
      expect((await api.call(`/public/sessions/${hash}/history/`, { headers })).status).toBe(404);
      expect((await api.call(`/public/sessions/${hash}/generate-title/`, { method: 'PATCH', headers })).status).toBe(404);
    }
  });

  it('lets anyone read a session the member made public, with its creator, chatbot and history, until it is private again', async () => {
    const hash = await memberChat('How do I share this?');
    const shared = await api.call(`/sessions/${hash}/`, { method: 'PATCH', token, body: { is_public: true } });
    expect(shared.status).toBe(200);
    expect(shared.body.is_public).toBe(true);

    const session = await api.call(`/public/sessions/${hash}/`, { headers: { 'x-access-token': 'public' } });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ hash_id: hash, creator_name: 'Demo Member', chatbot: { id: defaultChatbotId, en_name: 'General Assistant', is_public: false } });
    const history = await api.call(`/public/sessions/${hash}/history/?size=20`);
    expect(history.status).toBe(200);
    expect(history.body.items.map((m: { speaker_type: string }) => m.speaker_type)).toEqual(['member', 'chatbot']);
    expect(history.body.items[0].text).toBe('How do I share this?');

    // Another tenant does not have it.
    expect((await api.call(`/public/sessions/${hash}/`, { tenant: 'other' })).status).toBe(404);
    // A visitor cannot retitle a member's session.
    const retitled = await api.call(`/public/sessions/${hash}/generate-title/?language=ko`, { method: 'PATCH' });
    expect(retitled.status).toBe(200);
    expect(retitled.body.title).toBe(session.body.title);

    expect((await api.call(`/sessions/${hash}/`, { method: 'PATCH', token, body: { is_public: false } })).body.is_public).toBe(false);
    expect((await api.call(`/public/sessions/${hash}/`)).status).toBe(404);
  });

  it('refuses a member token on the public path of someone else’s private session and a member path without a token', async () => {
    const hash = await memberChat('Mine only');
    expect((await api.call(`/public/sessions/${hash}/`, { token: adminToken })).status).toBe(404);
    expect((await api.call(`/sessions/${hash}/`, { headers: { 'x-access-token': 'public' } })).status).toBe(401);
  });
});

describe('POST /public/chatbots/{id}/chat/', () => {
  it('refuses a chatbot that is not public (404), signed out or in', async () => {
    expect((await visitorChat(defaultChatbotId, { text: 'hello' })).status).toBe(404);
    expect((await visitorChat(defaultChatbotId, { text: 'hello' }, { 'x-access-token': token })).status).toBe(404);
    expect((await visitorChat(987654, { text: 'hello' })).status).toBe(404);
  });

  it('lets a visitor chat with a public chatbot in their language, in a public session the creator’s credits pay for', async () => {
    const response = await visitorChat(publicChatbotId, { text: '부산 여행 일정을 짜 주세요', language: 'ko' });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    expect(meta.session_created).toBe(true);
    const frames = await readFrames(response);
    expect(frames.filter((f) => f.type === 'text').map((f) => f.delta).join('')).toMatch(/^\*\*데모 모델\*\*/);
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });

    // The session is public at once, titled by the visitor's call, and shows no member as creator.
    const hash = meta.session_hash_id as string;
    const titled = await api.call(`/public/sessions/${hash}/generate-title/?language=ko`, { method: 'PATCH', headers: { 'x-access-token': 'public' } });
    expect(titled.status).toBe(200);
    expect(titled.body).toMatchObject({ creator_name: null, title: '부산 여행 일정을 짜 주세요에 대한 대화', chatbot: { id: publicChatbotId, is_public: true } });
    expect((await api.call(`/public/sessions/${hash}/history/`)).body.items).toHaveLength(2);

    // The creator pays, but the visitor's chat is not one of the creator's chats.
    const [usage] = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(usage).toMatchObject({ memberId: adminId, chatbotId: publicChatbotId });
    expect(usage!.credits).toBeGreaterThan(0);
    const adminSessions = await api.call('/sessions/', { token: adminToken });
    expect(adminSessions.body.items.map((s: { hash_id: string }) => s.hash_id)).not.toContain(hash);
    expect((await api.call(`/sessions/${hash}/`, { token: adminToken })).status).toBe(404);

    // The visitor continues the same session; a new chat starts another, and the old link still works.
    const next = await visitorChat(publicChatbotId, { text: 'And the second day?', session_hash_id: hash });
    expect(next.status).toBe(200);
    await readFrames(next);
    expect((await api.call(`/public/sessions/${hash}/history/`)).body.items).toHaveLength(4);
    const fresh = await visitorChat(publicChatbotId, { text: 'Something else' });
    const freshHash = JSON.parse(fresh.headers.get('x-chat-meta')!).session_hash_id;
    await readFrames(fresh);
    expect(freshHash).not.toBe(hash);
    expect((await api.call(`/public/sessions/${hash}/`)).status).toBe(200);
  });

  it('never lets a visitor write into a member’s session, shared or not', async () => {
    const [ownSession] = await server.db
      .insert(sessions)
      .values({ tenantId, hashId: 'admin-own-public', chatbotId: publicChatbotId, memberId: adminId, isPublic: true })
      .returning();
    const response = await visitorChat(publicChatbotId, { text: 'sneaking in', session_hash_id: ownSession!.hashId });
    expect(response.status).toBe(404);
  });

  it('answers 402 when the chatbot creator has no credits left', async () => {
    await server.db.update(members).set({ creditQuota: 0 }).where(eq(members.id, adminId));
    try {
      const response = await visitorChat(publicChatbotId, { text: 'Out of credits?' });
      expect(response.status).toBe(402);
      expect(await response.json()).toMatchObject({ code: 'credits_depleted', details: { depletion: 'chatbot_creator' } });
    } finally {
      await server.db.update(members).set({ creditQuota: null }).where(eq(members.id, adminId));
    }
  });

  it('answers 404 once the chatbot is private again', async () => {
    await server.db.update(chatbots).set({ isPublic: false }).where(eq(chatbots.id, publicChatbotId));
    try {
      expect((await visitorChat(publicChatbotId, { text: 'still there?' })).status).toBe(404);
    } finally {
      await server.db.update(chatbots).set({ isPublic: true }).where(eq(chatbots.id, publicChatbotId));
    }
  });
});

describe('rate limits on the public paths', () => {
  it('limits title calls per client IP with 429 and Retry-After', async () => {
    const hash = await memberChat('Limit me');
    await api.call(`/sessions/${hash}/`, { method: 'PATCH', token, body: { is_public: true } });
    let limited: { status: number; body: { code: string }; headers: Headers } | undefined;
    for (let attempt = 0; attempt < 25 && !limited; attempt++) {
      const result = await api.call(`/public/sessions/${hash}/generate-title/`, { method: 'PATCH' });
      if (result.status === 429) limited = result;
      else expect(result.status).toBe(200);
    }
    expect(limited?.body.code).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

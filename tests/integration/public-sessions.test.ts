import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, llmModels, members, sessions, taskModes, tenants, usageRecords } from '../../src/server/db/schema';
import { samplePng } from '../fixtures/sampleFiles';
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

interface ChatAs {
  token?: string;
  tenant?: string;
  chatbotId?: number;
  /** More of the chat body: file_ids, session_hash_id, image_generation… */
  body?: Record<string, unknown>;
}

/** A member's chat with a chatbot they see (the embedded demo model answers): the demo member's by default. */
async function memberChat(text: string, as: ChatAs = {}) {
  const response = await fetch(`${server.apiBase}/chatbots/${as.chatbotId ?? defaultChatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': as.token ?? token, ...(as.tenant ? { 'x-subdomain': as.tenant } : {}) },
    body: JSON.stringify({ text, ...as.body }),
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
  ({
    access_token: adminToken,
    member: { id: adminId },
  } = await api.signIn(DEMO_ADMIN));
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
  tenantId = tenant!.id;
  defaultChatbotId = (await api.call('/chatbots/?include_default=true', { token })).body.items[0].id;
  // A chatbot the admin made and published, on a paid model (so the creator's credits matter).
  const [paid] = await server.db
    .select()
    .from(llmModels)
    .where(and(eq(llmModels.tenantId, tenantId), eq(llmModels.name, 'balanced-pro')));
  const [published] = await server.db
    .insert(chatbots)
    .values({
      tenantId,
      hashId: 'public-travel',
      enName: 'Travel Planner',
      koName: '여행 플래너',
      llmModelId: paid!.id,
      creatorId: adminId,
      isPublic: true,
      publishStatus: 'approved',
    })
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
    expect(session.body).toMatchObject({
      hash_id: hash,
      creator_name: 'Demo Member',
      chatbot: { id: defaultChatbotId, en_name: 'General Assistant', is_public: false },
    });
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
    expect(
      frames
        .filter((f) => f.type === 'text')
        .map((f) => f.delta)
        .join(''),
    ).toMatch(/^\*\*데모 모델\*\*/);
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });

    // The session is public at once, titled by the visitor's call, and shows no member as creator.
    const hash = meta.session_hash_id as string;
    const titled = await api.call(`/public/sessions/${hash}/generate-title/?language=ko`, { method: 'PATCH', headers: { 'x-access-token': 'public' } });
    expect(titled.status).toBe(200);
    expect(titled.body).toMatchObject({ creator_name: null, title: '부산 여행 일정', chatbot: { id: publicChatbotId, is_public: true } });
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

describe('GET /public/chatbots/{hash}/', () => {
  it('shows a signed-out visitor a public chatbot by its hash id or its custom link, with what they may use', async () => {
    await server.db.update(chatbots).set({ publicHashId: 'trip-planner' }).where(eq(chatbots.id, publicChatbotId));
    try {
      for (const hash of ['public-travel', 'trip-planner']) {
        const result = await api.call(`/public/chatbots/${hash}/`, { headers: { 'x-access-token': 'public' } });
        expect(result.status, hash).toBe(200);
        expect(result.body).toMatchObject({
          id: publicChatbotId,
          hash_id: 'public-travel',
          public_hash_id: 'trip-planner',
          en_name: 'Travel Planner',
          ko_name: '여행 플래너',
          visitor_modes: { thinking: true, web_search: false },
        });
        // The tenant's task modes, by name only: never their instructions.
        expect(result.body.visitor_modes.task_modes.length).toBeGreaterThan(0);
        expect(Object.keys(result.body.visitor_modes.task_modes[0]).sort()).toEqual(['en_name', 'id', 'ko_name', 'mode_name']);
        expect(JSON.stringify(result.body)).not.toMatch(/system_instructions|email/);
      }
    } finally {
      await server.db.update(chatbots).set({ publicHashId: null }).where(eq(chatbots.id, publicChatbotId));
    }
  });

  it('answers 404 for a chatbot that is not public, unknown, or another tenant’s', async () => {
    const [defaultChatbot] = await server.db.select().from(chatbots).where(eq(chatbots.id, defaultChatbotId));
    expect((await api.call(`/public/chatbots/${defaultChatbot!.hashId}/`)).status).toBe(404);
    expect((await api.call(`/public/chatbots/${defaultChatbot!.hashId}/`, { token })).status).toBe(404);
    expect((await api.call('/public/chatbots/no-such-bot/')).status).toBe(404);
    // The demo tenant's public chatbot asked for in the other workspace, by either name.
    expect((await api.call('/public/chatbots/public-travel/', { tenant: 'other' })).status).toBe(404);
    expect((await visitorChat(publicChatbotId, { text: 'hello' }, { 'x-subdomain': 'other' })).status).toBe(404);
  });
});

describe('what a visitor may use in a public chat', () => {
  it('thinks, and follows a task mode of the tenant, when asked', async () => {
    const [mode] = await server.db.select().from(taskModes).where(eq(taskModes.tenantId, tenantId));
    const response = await visitorChat(publicChatbotId, { text: 'Plan a day in Seoul', thinking: true, task_mode_id: mode!.id });
    expect(response.status).toBe(200);
    const frames = await readFrames(response);
    expect(frames.some((f) => f.type === 'thinking')).toBe(true);
    expect(
      frames
        .filter((f) => f.type === 'text')
        .map((f) => f.delta)
        .join(''),
    ).toContain(mode!.enName);
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });
  });

  it('refuses files (403), web search on a server without it (400), and another tenant’s task mode (404)', async () => {
    const search = await visitorChat(publicChatbotId, { text: 'News today?', web_search: true });
    expect(search.status).toBe(400);
    expect(await search.json()).toMatchObject({ code: 'web_search_unavailable' });
    const files = await visitorChat(publicChatbotId, { text: 'See attached', file_ids: [1] });
    expect(files.status).toBe(403);
    expect(await files.json()).toMatchObject({ code: 'visitor_files_not_allowed' });
    const [otherTenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'other'));
    const [foreignMode] = await server.db.insert(taskModes).values({ tenantId: otherTenant!.id, enName: 'Foreign', instructions: 'x' }).returning();
    expect((await visitorChat(publicChatbotId, { text: 'hello', task_mode_id: foreignMode!.id })).status).toBe(404);
  });
});

describe('files of a shared session (GET /public/sessions/{hash}/files/{id}/)', () => {
  const PNG = samplePng();
  const NOTES = Buffer.from('meeting notes: ship on Friday');
  type Listed = { id: number; url: string; name: string; type: string };
  /** One file id per case, and the shared session that holds the readable ones. */
  let shared: { hash: string; image: number; notes: number; secret: number; generated: number };

  async function uploadOne(name: string, bytes: Buffer, as: { token?: string; tenant?: string; fields?: Record<string, string> } = {}) {
    const result = await api.upload(as.token ?? token, [{ name, bytes }], as.fields, as.tenant);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body.items[0].id as number;
  }

  /** What a signed-out browser gets: the token value `public`, the body read to the end. */
  async function visitorGet(url: string, tenant?: string) {
    const response = await fetch(`${server.url}${url}`, { headers: { 'x-access-token': 'public', ...(tenant ? { 'x-subdomain': tenant } : {}) } });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }
  const fileUrl = (hash: string, id: number) => `/api/v1/public/sessions/${hash}/files/${id}/`;
  const share = (hash: string, isPublic: boolean, as = token) => api.call(`/sessions/${hash}/`, { method: 'PATCH', token: as, body: { is_public: isPublic } });
  const listedFiles = (items: { files: Listed[] }[]) => items.flatMap((message) => message.files);

  beforeAll(async () => {
    const image = await uploadOne('whiteboard.png', PNG);
    const notes = await uploadOne('notes.txt', NOTES);
    const secret = await uploadOne('salary.txt', Buffer.from('private figures'), { fields: { access_level: 'private' } });
    const hash = await memberChat('What do these say?', { body: { file_ids: [image, notes, secret] } });
    // An image-mode answer in the same session: the generated picture is the session's file too.
    await memberChat('A lighthouse at dawn', { body: { session_hash_id: hash, image_generation: true } });
    expect((await share(hash, true)).status).toBe(200);
    const history = await api.call(`/sessions/${hash}/history/`, { token });
    const generated = listedFiles(history.body.items).find((file) => file.type === 'image/png' && file.id !== image)!;
    shared = { hash, image, notes, secret, generated: generated.id };
  });

  it('lets a signed-out visitor read them at the public path the shared history lists, with the file route’s headers', async () => {
    const history = await api.call(`/public/sessions/${shared.hash}/history/`, { headers: { 'x-access-token': 'public' } });
    expect(history.status).toBe(200);
    const listed = listedFiles(history.body.items);
    // The private file is not listed: its name is the member's own.
    expect(listed.map((file) => [file.id, file.url]).sort()).toEqual(
      [shared.image, shared.notes, shared.generated].map((id) => [id, fileUrl(shared.hash, id)]).sort(),
    );
    // The member's own view keeps the authenticated path, private file included.
    const own = listedFiles((await api.call(`/sessions/${shared.hash}/history/`, { token })).body.items);
    expect(own.map((file) => file.url).sort()).toEqual(
      [shared.image, shared.notes, shared.secret, shared.generated].map((id) => `/api/v1/files/${id}/`).sort(),
    );

    const image = await visitorGet(fileUrl(shared.hash, shared.image));
    expect(image.status).toBe(200);
    expect(image.body.equals(PNG)).toBe(true);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toBe(`inline; filename="whiteboard.png"; filename*=UTF-8''whiteboard.png`);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('private, no-store');
    expect(image.headers.get('content-security-policy')).toContain('sandbox');

    // A document downloads rather than opening as a page of this origin.
    const notes = await visitorGet(fileUrl(shared.hash, shared.notes));
    expect(notes.status).toBe(200);
    expect(notes.body.toString()).toBe(NOTES.toString());
    expect(notes.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(notes.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    expect(notes.headers.get('x-content-type-options')).toBe('nosniff');

    const generated = await visitorGet(fileUrl(shared.hash, shared.generated));
    expect(generated.status).toBe(200);
    expect(generated.headers.get('content-type')).toBe('image/png');
    expect(generated.body.subarray(1, 4).toString()).toBe('PNG');

    // Without any token header, and with a member's token of the tenant, the same file is served.
    const bare = await fetch(`${server.url}${fileUrl(shared.hash, shared.image)}`);
    expect([bare.status, (await bare.arrayBuffer()).byteLength]).toEqual([200, PNG.length]);
    const asMember = await fetch(`${server.url}${fileUrl(shared.hash, shared.image)}`, { headers: { 'x-access-token': adminToken } });
    expect([asMember.status, (await asMember.arrayBuffer()).byteLength]).toEqual([200, PNG.length]);
  });

  it('answers the same bare 404 for every file the visitor may not read', async () => {
    const refusals: [string, Awaited<ReturnType<typeof visitorGet>>][] = [];
    const refused = async (label: string, url: string, tenant?: string) => refusals.push([label, await visitorGet(url, tenant)]);

    await refused('a private file of the shared session', fileUrl(shared.hash, shared.secret));
    // The member's other session, never shared, and a file left in the composer.
    const unsharedFile = await uploadOne('draft.txt', Buffer.from('not shared'));
    const unshared = await memberChat('Keep this one', { body: { file_ids: [unsharedFile] } });
    await refused('a file of another, unshared session', fileUrl(shared.hash, unsharedFile));
    await refused('the unshared session’s file at its own hash', fileUrl(unshared, unsharedFile));
    const composerFile = await uploadOne('pending.png', PNG);
    await refused('an uploaded file sent in no message', fileUrl(shared.hash, composerFile));
    // Another shared session's file through this session's link.
    const otherFile = await uploadOne('other.txt', Buffer.from('other shared session'));
    const other = await memberChat('Another shared chat', { body: { file_ids: [otherFile] } });
    await share(other, true);
    expect((await visitorGet(fileUrl(other, otherFile))).status).toBe(200);
    await refused('a file of another shared session', fileUrl(shared.hash, otherFile));
    await refused('this session’s file through the other session', fileUrl(other, shared.image));
    // Another member's file, shared in their own session.
    const adminFile = await uploadOne('admin.txt', Buffer.from('admin only'), { token: adminToken });
    await refused('another member’s unsent file', fileUrl(shared.hash, adminFile));
    // Another tenant: its own shared session works there, and nowhere else.
    const otherToken = (await api.signIn(DEMO_MEMBER, 'other')).access_token;
    const otherBotId = (await api.call('/chatbots/?include_default=true', { token: otherToken, tenant: 'other' })).body.items[0].id as number;
    const foreignFile = await uploadOne('foreign.png', PNG, { token: otherToken, tenant: 'other' });
    const foreign = await memberChat('Elsewhere', { token: otherToken, tenant: 'other', chatbotId: otherBotId, body: { file_ids: [foreignFile] } });
    expect((await api.call(`/sessions/${foreign}/`, { method: 'PATCH', token: otherToken, tenant: 'other', body: { is_public: true } })).status).toBe(200);
    expect((await visitorGet(fileUrl(foreign, foreignFile), 'other')).status).toBe(200);
    await refused('another tenant’s shared session and file', fileUrl(foreign, foreignFile));
    await refused('another tenant’s file through this session', fileUrl(shared.hash, foreignFile));
    await refused('this tenant’s shared session asked in another tenant', fileUrl(shared.hash, shared.image), 'other');
    await refused('an id no file has', fileUrl(shared.hash, 2_000_000_000));
    await refused('a hash no session has', fileUrl('no-such-session', shared.image));
    // Unshared again: its files go with it (the link a visitor kept answers 404).
    expect((await share(shared.hash, false)).status).toBe(200);
    try {
      await refused('a file of the session once unshared', fileUrl(shared.hash, shared.image));
      await refused('a generated image of the session once unshared', fileUrl(shared.hash, shared.generated));
    } finally {
      await share(shared.hash, true);
    }

    const expected = refusals.map(([label]) => `${label} → 404`);
    expect(refusals.map(([label, response]) => `${label} → ${response.status}`)).toEqual(expected);
    // No hint: every refusal has the same body, none carries the file's bytes or name.
    const bodies = new Set(refusals.map(([, response]) => response.body.toString()));
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toMatch(/session|private|tenant|\.txt|\.png/i);
    expect((await visitorGet(fileUrl(shared.hash, shared.image))).status).toBe(200);
  });
});

describe('rate limits on the public paths', () => {
  it('limits a visitor’s sends per client IP with 429 rate_limited and Retry-After, before anything else is checked', async () => {
    let limited: Response | undefined;
    // Refused sends count too (an unknown chatbot), so the limit is reached without spending credits.
    for (let attempt = 0; attempt < 25 && !limited; attempt++) {
      const response = await visitorChat(987654, { text: 'hello' });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(404);
    }
    expect(limited).toBeDefined();
    expect(await limited!.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The public chatbot too, from the same address.
    expect((await visitorChat(publicChatbotId, { text: 'hello' })).status).toBe(429);
  });

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

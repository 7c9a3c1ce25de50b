import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  creditLedger,
  llmModels,
  members,
  modelGroupPermissions,
  restrictedWords,
  sessionMessages,
  taskModes,
  tenants,
  usageRecords,
} from '../../src/server/db/schema';
import { checkSend, openTurn } from '../../src/server/domains/chat/service';
import { chatBodySchema, chatMetaSchema } from '../../src/shared/api/chat';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { sendDeps } from './helpers/sendDeps';
import { apiClient, jsonBody, readFrames } from './helpers/client';

let upstream: FakeLlmUpstream;
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;
let memberId: number;
let chatbotIds: Record<'general' | 'quick' | 'writing', number>;

function send(chatbotId: number, body: Record<string, unknown>, signal?: AbortSignal) {
  return fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify(body),
    signal,
  });
}

async function messageById(id: number) {
  const [row] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, id));
  return row!;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not reached');
}

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({
    llm: { baseUrl: upstream.baseUrl, apiKey: 'fake-key', model: 'fake-model' },
    // Answers are written and their leases renewed often; the tests run the sweep themselves.
    config: { STREAM_FLUSH_SECONDS: 0.1, STREAM_LEASE_SECONDS: 2, STREAM_SWEEP_SECONDS: 3600 },
  });
  api = apiClient(server);
  const session = await api.signIn(DEMO_MEMBER);
  token = session.access_token;
  memberId = session.member.id;
  const list = await api.call('/chatbots/?include_default=true', { token });
  const byName = (name: string) => list.body.items.find((bot: { en_name: string }) => bot.en_name === name).id as number;
  chatbotIds = { general: byName('General Assistant'), quick: byName('Quick Helper'), writing: byName('Writing Coach') };
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});
beforeEach(() => upstream.setBehaviour({ chunks: DEFAULT_FAKE_CHUNKS, delayMs: 0, failStatus: undefined, dropAfterChunks: undefined }));

describe('POST /chatbots/{id}/chat/ through the OpenAI-compatible provider', () => {
  it('streams the upstream answer as frames, then saves it and meters the usage', async () => {
    const response = await send(chatbotIds.general, { text: 'Hello model', session_title: 'Greeting' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const meta = chatMetaSchema.parse(JSON.parse(response.headers.get('x-chat-meta')!));
    expect(meta).toMatchObject({ session_created: true, model: 'balanced-pro' });

    const frames = await readFrames(response);
    const text = frames
      .filter((f) => f.type === 'text')
      .map((f) => f.delta)
      .join('');
    expect(text).toBe(DEFAULT_FAKE_CHUNKS.join(''));
    const usage = frames.find((f) => f.type === 'usage');
    expect(usage).toMatchObject({ input_tokens: 42, output_tokens: 6 });
    // balanced-pro: 3 credits per 10K input, 12 per 10K output.
    expect(usage.credits).toBeCloseTo((42 / 10_000) * 3 + (6 / 10_000) * 12, 6);
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });

    const request = upstream.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer fake-key');
    expect(request.body).toMatchObject({ model: 'fake-model', stream: true });
    expect(request.body.messages?.[0]).toMatchObject({ role: 'system' });
    expect(request.body.messages?.at(-1)).toMatchObject({ role: 'user', content: 'Hello model' });

    const member = await messageById(meta.member_message_id);
    expect(member).toMatchObject({ speakerType: 'member', text: 'Hello model' });
    expect(await messageById(meta.chatbot_message_id)).toMatchObject({ speakerType: 'chatbot', text: text, interrupted: null });

    const [usageRow] = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(usageRow).toMatchObject({ memberId, modelName: 'balanced-pro', inputTokens: 42, outputTokens: 6 });
    // Reservation plus settlement leave exactly the real cost on the ledger.
    const ledger = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.memberId, memberId)));
    const net = ledger.filter((row) => row.kind !== 'grant').reduce((sum, row) => sum + row.amount, 0);
    expect(net).toBeCloseTo(-usage.credits, 6);

    const session = await api.call(`/sessions/${meta.session_hash_id}/`, { token });
    expect(session.body).toMatchObject({ title: 'Greeting', chatbot_id: chatbotIds.general });
    const chatbot = await api.call(`/chatbots/${chatbotIds.general}/`, { token });
    expect(chatbot.body.message_count).toBeGreaterThanOrEqual(1);
    expect(chatbot.body.token_count).toBeGreaterThanOrEqual(48);
  });

  it('sends the earlier conversation along when continuing a session', async () => {
    const first = await send(chatbotIds.general, { text: 'First question' });
    const meta = JSON.parse(first.headers.get('x-chat-meta')!);
    await first.text();
    const second = await send(chatbotIds.general, { text: 'Follow-up', session_hash_id: meta.session_hash_id });
    expect(JSON.parse(second.headers.get('x-chat-meta')!)).toMatchObject({ session_hash_id: meta.session_hash_id, session_created: false });
    await second.text();
    const roles = upstream.requests.at(-1)!.body.messages!.map((m) => [m.role, m.content]);
    expect(roles.slice(1)).toEqual([
      ['user', 'First question'],
      ['assistant', DEFAULT_FAKE_CHUNKS.join('')],
      ['user', 'Follow-up'],
    ]);
  });

  it('adds the chosen task mode’s instructions to the system prompt', async () => {
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    const [mode] = await server.db
      .insert(taskModes)
      .values({ tenantId: tenant!.id, enName: 'Summarise', instructions: 'Answer with three bullet points.' })
      .returning();
    const response = await send(chatbotIds.general, { text: 'Summarise this', task_mode_id: mode!.id });
    await response.text();
    const system = upstream.requests.at(-1)!.body.messages![0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Answer with three bullet points.');
    expect((await send(chatbotIds.general, { text: 'x', task_mode_id: 987_654 })).status).toBe(404);
  });

  it('keeps the partial answer as stopped and aborts the upstream call when the client stops', async () => {
    upstream.setBehaviour({ chunks: Array.from({ length: 60 }, (_, i) => `w${i} `), delayMs: 40 });
    const stop = new AbortController();
    const response = await send(chatbotIds.general, { text: 'Tell me a long story' }, stop.signal);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"type":"text"')) received += new TextDecoder().decode((await reader.read()).value);
    stop.abort();

    const request = upstream.requests.at(-1)!;
    await request.settled;
    expect(request.aborted).toBe(true);
    expect(request.chunksSent).toBeLessThan(60);

    const saved = await until(
      () => messageById(meta.chatbot_message_id),
      (row) => row.interrupted !== null,
    );
    expect(saved.interrupted).toBe('stopped');
    expect(saved.text.startsWith('w0 ')).toBe(true);
    expect(saved.text.length).toBeLessThan(Array.from({ length: 60 }, (_, i) => `w${i} `).join('').length);
    const [usageRow] = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(usageRow?.outputTokens).toBeGreaterThan(0);
  });

  it('reports an upstream failure in the stream and saves the answer as failed', async () => {
    upstream.setBehaviour({ failStatus: 500 });
    const response = await send(chatbotIds.general, { text: 'Will this work?' });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    expect(frames).toContainEqual(expect.objectContaining({ type: 'error', code: 'upstream_failed' }));
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'error' });
    expect(await messageById(meta.chatbot_message_id)).toMatchObject({ text: '', interrupted: 'failed' });
  });

  it('keeps what arrived before the provider dropped the connection', async () => {
    upstream.setBehaviour({ dropAfterChunks: 2 });
    const response = await send(chatbotIds.general, { text: 'Flaky provider' });
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'error' });
    expect(await messageById(meta.chatbot_message_id)).toMatchObject({ text: 'Hello from', interrupted: 'failed' });
  });
});

async function remainingCredit(): Promise<number> {
  const check = await api.call(`/members/${memberId}/credit-check/`, { token });
  return check.body.remaining_credit;
}

async function reservationFor(messageId: number) {
  const [reservation] = await server.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.kind, 'reservation'), eq(creditLedger.messageId, messageId)));
  const settlements = reservation ? await server.db.select().from(creditLedger).where(eq(creditLedger.reservationId, reservation.id)) : [];
  return { reservation: reservation!, settlements };
}

describe('answers whose server stopped streaming them (leases)', () => {
  /** balanced-pro, the General Assistant's model: credits per 10K tokens. */
  const cost = (inputTokens: number, outputTokens: number) => (inputTokens / 10_000) * 3 + (outputTokens / 10_000) * 12;

  it('are saved as interrupted with their text and settled for what was produced once their lease ran out, live and finished answers left alone', async () => {
    const finished = await send(chatbotIds.general, { text: 'An answer that completed' });
    const finishedMeta = chatMetaSchema.parse(JSON.parse(finished.headers.get('x-chat-meta')!));
    await finished.text();

    // A turn of a process that died after writing part of its answer: its lease is already over.
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    const [member] = await server.db.select().from(members).where(eq(members.id, memberId));
    const crashedTurn = await openTurn(
      server.db,
      await checkSend(
        sendDeps(server),
        tenant!,
        member!,
        chatbotIds.general,
        chatBodySchema.parse({ text: 'Lost in a crash', session_hash_id: finishedMeta.session_hash_id }),
      ),
      { owner: 'dead-process', seconds: 0 },
    );
    const crashedId = crashedTurn.meta.chatbot_message_id;
    const partial = 'The first words the member saw';
    await server.db.update(sessionMessages).set({ text: partial }).where(eq(sessionMessages.id, crashedId));
    const held = await reservationFor(crashedId);
    expect(held.reservation.amount).toBeLessThan(0);

    // An answer this server is streaming right now: its lease is renewed as it streams.
    upstream.setBehaviour({ chunks: Array.from({ length: 60 }, (_, i) => `w${i} `), delayMs: 40 });
    const stop = new AbortController();
    const live = await send(chatbotIds.general, { text: 'Still answering' }, stop.signal);
    const liveMeta = chatMetaSchema.parse(JSON.parse(live.headers.get('x-chat-meta')!));
    const flushed = await until(
      () => messageById(liveMeta.chatbot_message_id),
      (row) => row.text.length > 0,
    );
    expect(flushed).toMatchObject({ streaming: true, interrupted: null, streamOwner: expect.any(String) });
    const remainingBefore = await remainingCredit();

    expect(await server.app.sweepAbandonedAnswers()).toBe(1);

    const charged = cost(crashedTurn.estimatedInputTokens, Math.ceil(partial.length / 4));
    expect(await messageById(crashedId)).toMatchObject({
      streaming: false,
      interrupted: 'interrupted',
      text: partial,
      streamOwner: 'dead-process',
      leaseExpiresAt: null,
    });
    expect((await reservationFor(crashedId)).settlements).toEqual([expect.objectContaining({ amount: expect.closeTo(-held.reservation.amount - charged, 6) })]);
    const [usage] = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, crashedId));
    expect(usage).toMatchObject({ credits: expect.closeTo(charged, 6), inputTokens: crashedTurn.estimatedInputTokens });
    expect(await remainingCredit()).toBeCloseTo(remainingBefore - held.reservation.amount - charged, 6);
    expect(await messageById(liveMeta.chatbot_message_id)).toMatchObject({ streaming: true, interrupted: null });
    expect(await messageById(finishedMeta.chatbot_message_id)).toMatchObject({ streaming: false, interrupted: null, text: DEFAULT_FAKE_CHUNKS.join('') });

    // The history tells the interrupted answer from the finished one and from one still being written.
    const history = await api.call(`/sessions/${finishedMeta.session_hash_id}/history/`, { token });
    expect(history.body.items.at(-3)).toMatchObject({ id: finishedMeta.chatbot_message_id, interrupted: null, streaming: false });
    expect(history.body.items.at(-1)).toMatchObject({ id: crashedId, speaker_type: 'chatbot', interrupted: 'interrupted', streaming: false, text: partial });
    const liveHistory = await api.call(`/sessions/${liveMeta.session_hash_id}/history/`, { token });
    expect(liveHistory.body.items.at(-1)).toMatchObject({
      id: liveMeta.chatbot_message_id,
      interrupted: null,
      streaming: true,
      text: expect.stringMatching(/^w0 /),
    });

    stop.abort();
    const stopped = await until(
      () => messageById(liveMeta.chatbot_message_id),
      (row) => !row.streaming,
    );
    expect(stopped).toMatchObject({ interrupted: 'stopped', streamOwner: null });
  });

  it('tell the client an answer a sweep took over was not saved, and charge it once', async () => {
    upstream.setBehaviour({ chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 40 });
    const response = await send(chatbotIds.general, { text: 'A server that lost the database for too long' });
    const meta = chatMetaSchema.parse(JSON.parse(response.headers.get('x-chat-meta')!));
    const framesRead = readFrames(response);
    await until(
      () => messageById(meta.chatbot_message_id),
      (row) => row.text.length > 0,
    );
    // As if this process had not renewed the lease in time: a sweep saves the answer (again if a renewal came in between).
    const expireAndSweep = async () => {
      await server.db
        .update(sessionMessages)
        .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
        .where(eq(sessionMessages.id, meta.chatbot_message_id));
      return server.app.sweepAbandonedAnswers();
    };
    await until(expireAndSweep, (swept) => swept === 1);

    const frames = await framesRead;
    expect(frames.at(-1)).toEqual({ type: 'error', code: 'answer_not_saved', message: expect.any(String) });
    expect(frames.filter((frame) => frame.type === 'usage' || frame.type === 'end')).toEqual([]);
    const request = upstream.requests.at(-1)!;
    await request.settled;
    expect(request.aborted).toBe(true);
    expect(await messageById(meta.chatbot_message_id)).toMatchObject({ streaming: false, interrupted: 'interrupted' });
    expect(await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id))).toHaveLength(1);
    expect((await reservationFor(meta.chatbot_message_id)).settlements).toHaveLength(1);
  });
});

describe('chat errors known before streaming', () => {
  it.each([
    ['blank text', { text: ' \n\t ' }],
    ['no text at all', {}],
  ])('422 message_empty for %s and no files (spec §8: validation error, message empty)', async (_, body) => {
    const response = await send(chatbotIds.general, body);
    expect(response.status).toBe(422);
    expect((await jsonBody(response)).code).toBe('message_empty');
  });

  it.each([
    ['text of the wrong type', { text: 42 }],
    ['file ids of the wrong type', { text: 'hi', file_ids: 'all' }],
  ])('400 validation_error for a malformed body (%s)', async (_, body) => {
    const response = await send(chatbotIds.general, body);
    expect(response.status).toBe(400);
    expect((await jsonBody(response)).code).toBe('validation_error');
  });

  it('422 restricted_term when the text contains a restricted word of the tenant, before the model sees it', async () => {
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    await server.db.insert(restrictedWords).values({ tenantId: tenant!.id, word: 'Project Falcon' });
    const before = upstream.requests.length;
    const response = await send(chatbotIds.general, { text: 'What is project falcon about?' });
    expect(response.status).toBe(422);
    expect(await jsonBody(response)).toMatchObject({ code: 'restricted_term', details: { terms: ['Project Falcon'] } });
    expect(upstream.requests.length).toBe(before);
    await server.db.delete(restrictedWords);
  });

  it('413 input_too_long when the estimate exceeds the model context', async () => {
    const before = upstream.requests.length;
    const response = await send(chatbotIds.quick, { text: '가'.repeat(50_000) });
    expect(response.status).toBe(413);
    expect((await jsonBody(response)).code).toBe('input_too_long');
    expect(upstream.requests.length).toBe(before);
  });

  it('403 model_not_allowed when none of the member groups may use the model', async () => {
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.name, 'deep-reasoner'));
    await server.db.update(modelGroupPermissions).set({ isAvailable: false }).where(eq(modelGroupPermissions.llmModelId, model!.id));
    const response = await send(chatbotIds.writing, { text: 'Check my essay' });
    expect(response.status).toBe(403);
    expect((await jsonBody(response)).code).toBe('model_not_allowed');
    await server.db.update(modelGroupPermissions).set({ isAvailable: true }).where(eq(modelGroupPermissions.llmModelId, model!.id));
  });

  it('402 credits_depleted once the member quota is used up, while the unlimited model still answers', async () => {
    await server.db.update(members).set({ creditQuota: 0 }).where(eq(members.id, memberId));
    const check = await api.call(`/members/${memberId}/credit-check/`, { token });
    expect(check.body.remaining_credit).toBeLessThanOrEqual(0);

    const paid = await send(chatbotIds.general, { text: 'Hello again' });
    expect(paid.status).toBe(402);
    expect((await jsonBody(paid)).code).toBe('credits_depleted');

    const unlimited = await send(chatbotIds.quick, { text: 'Hello again' });
    expect(unlimited.status).toBe(200);
    const frames = await readFrames(unlimited);
    expect(frames.find((f) => f.type === 'usage').credits).toBe(0);
    await server.db.update(members).set({ creditQuota: null }).where(eq(members.id, memberId));
  });

  it('reserves credits atomically so that concurrent sends cannot overspend', async () => {
    // 1 credit left, less than one full answer costs: one send reserves all of it (for a shorter answer), the other finds nothing.
    const used = await api.call(`/members/${memberId}/credit-check/`, { token });
    await server.db
      .update(members)
      .set({ creditQuota: 5000 - used.body.remaining_credit + 1 })
      .where(eq(members.id, memberId));
    upstream.setBehaviour({ delayMs: 30 });
    const [first, second] = await Promise.all([send(chatbotIds.general, { text: 'one' }), send(chatbotIds.general, { text: 'two' })]);
    expect([first.status, second.status].sort()).toEqual([200, 402]);
    await Promise.all([first.text(), second.text()]);
    await server.db.update(members).set({ creditQuota: null }).where(eq(members.id, memberId));
  });

  it('404 for a session of another chatbot and for an unknown chatbot', async () => {
    const first = await send(chatbotIds.general, { text: 'Hi' });
    const meta = JSON.parse(first.headers.get('x-chat-meta')!);
    await first.text();
    expect((await send(chatbotIds.quick, { text: 'Hi', session_hash_id: meta.session_hash_id })).status).toBe(404);
    expect((await send(999_999, { text: 'Hi' })).status).toBe(404);
  });
});

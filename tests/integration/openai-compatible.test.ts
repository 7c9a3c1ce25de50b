import { and, eq, isNotNull, sql } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiKeys,
  chatbots,
  creditLedger,
  llmModels,
  members,
  piiSettings,
  restrictedWords,
  sessionMessages,
  sessions,
  usageRecords,
} from '../../src/server/db/schema';
import type { OpenAiError } from '../../src/shared/api/openai';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

/** Calls per key per minute on this server: low, so the limit is reachable in a test. */
const RATE_LIMIT = 8;

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let memberToken: string;
let adminToken: string;
let memberId: number;
let groupId: number;
let general: { id: number; hash_id: string; llm_model: { id: number } };
let quick: { id: number; hash_id: string };
let baseURL: string;
/** A second server whose models answer from the fake upstream: quick answers, or long ones for the tests that cut an answer off. */
let upstream: FakeLlmUpstream;
let upstreamServer: TestServer;
const QUICK_ANSWERS = { chunks: DEFAULT_FAKE_CHUNKS, delayMs: 0 };
/** Still streaming seconds after their first words (the demo model's answer would be over). */
const LONG_ANSWERS = { chunks: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 40 };

async function newKey(chatbotIds: number[], token = memberToken, tenant?: string): Promise<{ id: number; key: string }> {
  const created = await api.call('/apikeys/', { method: 'POST', token, tenant, body: { name: 'test', chatbot_ids: chatbotIds } });
  expect(created.status).toBe(200);
  return created.body;
}

const client = (apiKey: string) => new OpenAI({ apiKey, baseURL, maxRetries: 0 });

/** A raw call of the API, to read statuses, headers and error bodies exactly. */
function raw(path: string, key: string | undefined, body?: unknown) {
  return fetch(`${baseURL}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const ask = (model: string, content = 'Hello there') => ({ model, messages: [{ role: 'user', content }] });

/** A non-streamed call with parameters the client's types may not allow (refused ones, out of range). */
const askWith = (model: string, extra: Record<string, unknown>) => ({ ...ask(model), ...extra }) as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;

/** The demo member's General Assistant on `upstreamServer`, and a new API key of theirs for it. */
async function upstreamKey(name: string): Promise<{ bot: { id: number; hash_id: string; llm_model: { id: number } }; id: number; key: string }> {
  const upstreamApi = apiClient(upstreamServer);
  const { access_token } = await upstreamApi.signIn(DEMO_MEMBER);
  const visible = await upstreamApi.call('/chatbots/?include_default=true', { token: access_token });
  const bot = visible.body.items.find((item: { en_name: string }) => item.en_name === 'General Assistant');
  const { id, key } = (await upstreamApi.call('/apikeys/', { method: 'POST', token: access_token, body: { name, chatbot_ids: [bot.id] } })).body;
  return { bot, id, key };
}

async function refusal(key: string, body: unknown): Promise<{ status: number; error: OpenAiError['error'] }> {
  const response = await raw('/chat/completions', key, body);
  return { status: response.status, error: ((await response.json()) as OpenAiError).error };
}

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['acme'], config: { API_KEY_RATE_LIMIT: RATE_LIMIT } });
  upstream = await startFakeLlmUpstream(QUICK_ANSWERS);
  // Answers written often; a test plays the sweep of another process itself (an answer the server could not save).
  upstreamServer = await startTestServer({
    llm: { baseUrl: upstream.baseUrl },
    config: { STREAM_FLUSH_SECONDS: 0.1, STREAM_LEASE_SECONDS: 2, STREAM_SWEEP_SECONDS: 3600 },
  });
  api = apiClient(server);
  baseURL = `${server.apiBase}/openai`;
  const member = await api.signIn(DEMO_MEMBER);
  memberToken = member.access_token;
  memberId = member.member.id;
  adminToken = (await api.signIn(DEMO_ADMIN)).access_token;
  const [row] = await server.db.select().from(members).where(eq(members.id, memberId));
  groupId = row!.defaultMemberGroupId!;
  const visible = await api.call('/chatbots/?include_default=true', { token: memberToken });
  const byName = (name: string) => visible.body.items.find((bot: { en_name: string }) => bot.en_name === name);
  general = byName('General Assistant');
  quick = byName('Quick Helper');
});
afterAll(async () => {
  await server?.close();
  await upstreamServer?.close();
  await upstream?.close();
});
afterEach(async () => {
  await server.db.update(members).set({ creditQuota: null }).where(eq(members.id, memberId));
});

describe('the official openai client', () => {
  it('lists the key’s chatbots as models', async () => {
    const { key } = await newKey([general.id]);
    const models = [];
    for await (const model of client(key).models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual([general.hash_id]);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: 'chatbot-platform' });
  });

  it('answers without streaming, metered to the owner and recorded as the key’s usage, not as a chat', async () => {
    const { id, key } = await newKey([general.id, quick.id]);
    const answer = await client(key).chat.completions.create({
      model: general.hash_id,
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: 'Four.' },
        { role: 'user', content: 'And 3+3?' },
      ],
    });
    expect(answer.object).toBe('chat.completion');
    expect(answer.model).toBe(general.hash_id);
    expect(answer.choices[0]!.message.role).toBe('assistant');
    expect(answer.choices[0]!.message.content).toContain('Demo model');
    expect(answer.choices[0]!.finish_reason).toBe('stop');
    expect(answer.usage!.total_tokens).toBe(answer.usage!.prompt_tokens + answer.usage!.completion_tokens);

    // The numeric id names the chatbot too.
    const byId = await client(key).chat.completions.create(ask(String(quick.id)) as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(byId.choices[0]!.message.content).not.toBe('');

    const usage = await server.db.select().from(usageRecords).where(eq(usageRecords.apiKeyId, id));
    expect(usage).toHaveLength(2);
    expect(usage.every((row) => row.memberId === memberId)).toBe(true);
    const paid = usage.find((row) => row.chatbotId === general.id)!;
    expect(paid.credits).toBeGreaterThan(0);
    expect(paid.inputTokens).toBe(answer.usage!.prompt_tokens);

    const apiSessions = await server.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.memberId, memberId), eq(sessions.isApi, true)));
    expect(apiSessions.length).toBeGreaterThanOrEqual(2);
    const listed = await api.call('/sessions/?size=100', { token: memberToken });
    const listedHashes = listed.body.items.map((session: { hash_id: string }) => session.hash_id);
    for (const session of apiSessions) expect(listedHashes).not.toContain(session.hashId);
    expect((await api.call(`/sessions/${apiSessions[0]!.hashId}/`, { token: memberToken })).status).toBe(404);

    const keyRow = (await api.call('/apikeys/?size=100', { token: memberToken })).body.items.find((k: { id: number }) => k.id === id);
    expect(keyRow.requests_this_month).toBe(2);
    expect(keyRow.credits_this_month).toBeCloseTo(paid.credits, 6);
    expect(keyRow.last_used_at).not.toBeNull();
  });

  it('streams chat.completion.chunk frames, with usage when asked', async () => {
    const { key } = await newKey([general.id]);
    const stream = await client(key).chat.completions.create({
      ...(ask(general.hash_id) as OpenAI.ChatCompletionCreateParamsNonStreaming),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0]!.id)).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(text).toContain('Demo model');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it('ends a raw stream with data: [DONE]', async () => {
    const { key } = await newKey([quick.id]);
    const response = await raw('/chat/completions', key, { ...ask(quick.hash_id), stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await response.text()).split('\n\n').filter(Boolean);
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(frames[0]!.slice('data: '.length)).object).toBe('chat.completion.chunk');
  });

  it('refuses a revoked key at once, and an expired one (401 authentication_error)', async () => {
    const { id, key } = await newKey([quick.id]);
    await client(key).chat.completions.create(ask(quick.hash_id) as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect((await api.call(`/apikeys/${id}/`, { method: 'DELETE', token: memberToken })).status).toBe(200);
    await expect(client(key).chat.completions.create(ask(quick.hash_id) as OpenAI.ChatCompletionCreateParamsNonStreaming)).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    const revoked = await refusal(key, ask(quick.hash_id));
    expect(revoked).toMatchObject({ status: 401, error: { type: 'authentication_error', code: 'invalid_api_key' } });
    expect(revoked.error.message).toContain('revoked');

    const expiring = await newKey([quick.id]);
    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expiring.id));
    await expect(client(expiring.key).models.list()).rejects.toMatchObject({ status: 401 });
    expect((await refusal(expiring.key, ask(quick.hash_id))).error.message).toContain('expired');
  });

  it('refuses a chatbot the key does not allow (404 model_not_found)', async () => {
    const { key } = await newKey([quick.id]);
    await expect(client(key).chat.completions.create(ask(general.hash_id) as OpenAI.ChatCompletionCreateParamsNonStreaming)).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    expect(await refusal(key, ask(general.hash_id))).toMatchObject({ status: 404, error: { type: 'invalid_request_error', code: 'model_not_found' } });
    expect((await refusal(key, ask('no-such-chatbot'))).status).toBe(404);
  });

  it('refuses with 402 when the owner’s credits are depleted', async () => {
    const { key } = await newKey([general.id]);
    await server.db.update(members).set({ creditQuota: 0 }).where(eq(members.id, memberId));
    const error = await client(key)
      .chat.completions.create(ask(general.hash_id) as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect(await refusal(key, ask(general.hash_id))).toMatchObject({ status: 402, error: { type: 'insufficient_quota', code: 'insufficient_quota' } });
  });

  it('answers 429 with Retry-After past the key’s rate limit', async () => {
    const { key } = await newKey([quick.id]);
    for (let call = 0; call < RATE_LIMIT; call += 1) expect((await raw('/models', key)).status).toBe(200);
    const limited = await raw('/models', key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as OpenAiError).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    await expect(client(key).models.list()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    // Another key of the same member has its own budget.
    expect((await raw('/models', (await newKey([quick.id])).key)).status).toBe(200);
  });
});

describe('the app’s send rules as OpenAI errors', () => {
  it('403 when the member’s group may not use the chatbot’s model', async () => {
    const { key } = await newKey([general.id]);
    const toggle = (isAvailable: boolean) =>
      api.call(`/admin/llm-models/${general.llm_model.id}/member-groups/${groupId}/`, {
        method: 'PATCH',
        token: adminToken,
        body: { is_available: isAvailable },
      });
    expect((await toggle(false)).status).toBe(200);
    try {
      expect(await refusal(key, ask(general.hash_id))).toMatchObject({ status: 403, error: { type: 'permission_error', code: 'model_not_allowed' } });
    } finally {
      await toggle(true);
    }
  });

  it('413 when the conversation exceeds the model’s context', async () => {
    const { key } = await newKey([general.id]);
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.id, general.llm_model.id));
    await server.db.update(llmModels).set({ contextLimit: 50 }).where(eq(llmModels.id, model!.id));
    try {
      const long = {
        model: general.hash_id,
        messages: [
          { role: 'user', content: 'word '.repeat(200) },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'go on' },
        ],
      };
      expect(await refusal(key, long)).toMatchObject({ status: 413, error: { code: 'context_length_exceeded' } });
    } finally {
      await server.db.update(llmModels).set({ contextLimit: model!.contextLimit }).where(eq(llmModels.id, model!.id));
    }
  });

  it('422 for a restricted term, in the last message or earlier ones', async () => {
    const { key } = await newKey([quick.id]);
    expect((await api.call('/admin/restricted-words/', { method: 'POST', token: adminToken, body: { word: 'forbiddenword' } })).status).toBe(200);
    try {
      expect(await refusal(key, ask(quick.hash_id, 'say forbiddenword'))).toMatchObject({ status: 422, error: { code: 'restricted_term' } });
      const earlier = {
        model: quick.hash_id,
        messages: [
          { role: 'system', content: 'forbiddenword' },
          { role: 'user', content: 'hello' },
        ],
      };
      expect((await refusal(key, earlier)).status).toBe(422);
    } finally {
      await server.db.delete(restrictedWords);
    }
  });

  it('428 for personal data the tenant blocks', async () => {
    const { key } = await newKey([quick.id]);
    expect((await api.call('/admin/pii-settings/', { method: 'PATCH', token: adminToken, body: { phone: 'block' } })).status).toBe(200);
    try {
      expect(await refusal(key, ask(quick.hash_id, 'call me at 010-1234-5678'))).toMatchObject({ status: 428, error: { code: 'pii_blocked' } });
    } finally {
      await server.db.delete(piiSettings);
    }
  });

  it('400 for a malformed request, 401 without a key, with a member token, or with another tenant’s key', async () => {
    const { key } = await newKey([quick.id]);
    const malformed = await refusal(key, { model: quick.hash_id, messages: [] });
    expect(malformed).toMatchObject({ status: 400, error: { type: 'invalid_request_error' } });
    expect((await refusal(key, { model: quick.hash_id, messages: [{ role: 'assistant', content: 'hi' }] })).status).toBe(400);
    // A NUL byte is refused before validation, and said the same way (with where it was).
    expect(await refusal(key, { model: quick.hash_id, messages: [{ role: 'user', content: 'a\u0000b' }] })).toMatchObject({
      status: 400,
      error: { type: 'invalid_request_error', code: 'invalid_request_error', message: 'Invalid request: body: must not contain NUL characters' },
    });
    expect((await raw('/models', undefined)).status).toBe(401);
    expect(((await (await raw('/models', undefined)).json()) as OpenAiError).error.type).toBe('authentication_error');
    expect((await raw('/models', memberToken)).status).toBe(401);
    expect((await raw('/models', 'cbp_live_madeup')).status).toBe(401);
    // An API key is no access token for the app's own endpoints.
    expect((await api.call('/apikeys/', { token: key })).status).toBe(401);

    const acmeToken = (await api.signIn(DEMO_MEMBER, 'acme')).access_token;
    const acmeBots = await api.call('/chatbots/?include_default=true', { token: acmeToken, tenant: 'acme' });
    const acme = await newKey([acmeBots.body.items[0].id], acmeToken, 'acme');
    expect((await raw('/models', acme.key)).status).toBe(401);
    const acmeModels = await fetch(`${baseURL}/models`, { headers: { authorization: `Bearer ${acme.key}`, 'x-subdomain': 'acme' } });
    expect(acmeModels.status).toBe(200);
  });

  it('a client that goes away stops the answer: saved as stopped, charged for what was streamed', async () => {
    upstream.setBehaviour(LONG_ANSWERS);
    try {
      const { bot, id, key } = await upstreamKey('goes away');
      const controller = new AbortController();
      const response = await fetch(`${upstreamServer.apiBase}/openai/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...ask(bot.hash_id), stream: true }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await vi.waitFor(
        async () => {
          const [usage] = await upstreamServer.db.select().from(usageRecords).where(eq(usageRecords.apiKeyId, id));
          expect(usage).toBeDefined();
        },
        { timeout: 10_000, interval: 50 },
      );
      const [usage] = await upstreamServer.db.select().from(usageRecords).where(eq(usageRecords.apiKeyId, id));
      const [answer] = await upstreamServer.db
        .select()
        .from(sessionMessages)
        .where(and(eq(sessionMessages.id, usage!.messageId!), isNotNull(sessionMessages.interrupted)));
      expect(answer?.interrupted).toBe('stopped');
    } finally {
      upstream.setBehaviour(QUICK_ANSWERS);
    }
  });
});

describe('OpenAI parameters', () => {
  it('max_tokens and max_completion_tokens cut the answer (finish_reason length) and lower the credit reservation', async () => {
    const { id, key } = await newKey([general.id]);
    const full = await client(key).chat.completions.create(askWith(general.hash_id, {}));
    expect(full.choices[0]!.finish_reason).toBe('stop');
    expect(full.usage!.completion_tokens).toBeGreaterThan(5);
    const cut = await client(key).chat.completions.create(askWith(general.hash_id, { max_tokens: 5 }));
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(cut.usage!.completion_tokens).toBe(5);
    expect(full.choices[0]!.message.content).toContain(cut.choices[0]!.message.content!);
    // Both given: the smaller limits.
    const both = await client(key).chat.completions.create(askWith(general.hash_id, { max_tokens: 50, max_completion_tokens: 3 }));
    expect(both.usage!.completion_tokens).toBe(3);

    const usage = await server.db.select().from(usageRecords).where(eq(usageRecords.apiKeyId, id)).orderBy(usageRecords.id);
    const reserved = async (messageId: number | null) => {
      const [row] = await server.db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.kind, 'reservation'), eq(creditLedger.messageId, messageId!)));
      return Math.abs(row!.amount);
    };
    const [model] = await server.db.select().from(llmModels).where(eq(llmModels.id, general.llm_model.id));
    // The same conversation: only the output part of the reservation differs (the model's output limit by default).
    const [fullReserved, cutReserved, bothReserved] = await Promise.all(usage.map((row) => reserved(row.messageId)));
    expect(fullReserved! - cutReserved!).toBeCloseTo(((model!.maxOutputTokens - 5) / 10_000) * model!.outputCostPer10k, 4);
    expect(fullReserved! - bothReserved!).toBeCloseTo(((model!.maxOutputTokens - 3) / 10_000) * model!.outputCostPer10k, 4);
  });

  it('accepts parameters that change nothing a caller sees', async () => {
    const { key } = await newKey([quick.id]);
    const answer = await client(key).chat.completions.create(
      askWith(quick.hash_id, {
        user: 'user-1',
        metadata: { purpose: 'test' },
        store: false,
        service_tier: 'auto',
        parallel_tool_calls: false,
        n: 1,
        tools: [],
        tool_choice: 'none',
        logprobs: false,
        response_format: { type: 'text' },
        modalities: ['text'],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello in parts' }] }],
      }),
    );
    expect(answer.choices[0]!.message.content).toContain('Hello in parts');
  });

  /**
   * Sends each call through the official client and expects 400 `invalid_request_error` naming its
   * param (and `message` in the text when given); returns the last key used. Refusals count against
   * the key's rate limit: a key for every few calls.
   */
  async function expectBadRequests(calls: [Record<string, unknown>, string][], message?: string): Promise<string> {
    let key = '';
    for (const [index, [extra, param]] of calls.entries()) {
      if (index % 4 === 0) key = (await newKey([quick.id])).key;
      const error = await client(key)
        .chat.completions.create(askWith(quick.hash_id, extra))
        .catch((caught: unknown) => caught);
      expect(error, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error, param).toMatchObject({ status: 400, type: 'invalid_request_error', param });
      if (message) expect((error as InstanceType<typeof OpenAI.BadRequestError>).message, param).toContain(message);
    }
    return key;
  }

  it('refuses what it cannot honour with 400 invalid_request_error naming the param', async () => {
    const part = (extra: Record<string, unknown>) => ({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, extra] }] });
    const refused: [Record<string, unknown>, string][] = [
      [{ n: 2 }, 'n'],
      [{ tools: [{ type: 'function', function: { name: 'lookup', parameters: {} } }] }, 'tools'],
      [{ tool_choice: 'auto' }, 'tool_choice'],
      [{ functions: [{ name: 'lookup' }] }, 'functions'],
      [{ function_call: 'auto' }, 'function_call'],
      [{ logprobs: true }, 'logprobs'],
      [{ top_logprobs: 2 }, 'top_logprobs'],
      [{ response_format: { type: 'json_object' } }, 'response_format.type'],
      [{ modalities: ['text', 'audio'] }, 'modalities'],
      [{ audio: { voice: 'alloy', format: 'mp3' } }, 'audio'],
      [part({ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }), 'messages.[0].content.[1].type'],
      [part({ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }), 'messages.[0].content.[1].type'],
      [part({ type: 'file', file: { file_id: 'file-1' } }), 'messages.[0].content.[1].type'],
    ];
    const key = await expectBadRequests(refused, 'not supported');
    const image = await refusal(key, { ...ask(quick.hash_id), ...part({ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }) });
    expect(image.error.message).toContain("Content parts of type 'image_url' are not supported");
  });

  it('refuses values out of range with 400 naming the param', async () => {
    const outOfRange: [Record<string, unknown>, string][] = [
      [{ temperature: 2.5 }, 'temperature'],
      [{ top_p: 1.5 }, 'top_p'],
      [{ max_tokens: 0 }, 'max_tokens'],
      [{ max_completion_tokens: 1.5 }, 'max_completion_tokens'],
      [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ presence_penalty: 2.5 }, 'presence_penalty'],
      [{ frequency_penalty: -3 }, 'frequency_penalty'],
      [{ seed: 0.5 }, 'seed'],
    ];
    await expectBadRequests(outOfRange);
  });
});

describe('sampling parameters on an OpenAI-compatible upstream', () => {
  let key: string;
  let bot: { id: number; hash_id: string; llm_model: { id: number } };

  beforeAll(async () => {
    ({ bot, key } = await upstreamKey('sampling'));
  });

  const call = async (extra: Record<string, unknown>) => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${upstreamServer.apiBase}/openai`, maxRetries: 0 });
    await openai.chat.completions.create(askWith(bot.hash_id, extra));
    return upstream.requests.at(-1)!.body;
  };

  it('sends the call’s temperature, top_p, max_tokens, stop, seed and penalties to the model', async () => {
    const sent = await call({ temperature: 0.2, top_p: 0.5, max_tokens: 77, stop: ['END', 'STOP'], seed: 42, presence_penalty: 0.5, frequency_penalty: -0.5 });
    expect(sent).toMatchObject({
      temperature: 0.2,
      top_p: 0.5,
      max_tokens: 77,
      stop: ['END', 'STOP'],
      seed: 42,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
    });
    expect((await call({ stop: 'END', max_completion_tokens: 30 })).stop).toEqual(['END']);
    expect(upstream.requests.at(-1)!.body.max_tokens).toBe(30);
  });

  it('keeps the chatbot’s sampling for what the call leaves out, and caps max_tokens at the model’s own output limit', async () => {
    const [chatbot] = await upstreamServer.db.select().from(chatbots).where(eq(chatbots.id, bot.id));
    const [model] = await upstreamServer.db.select().from(llmModels).where(eq(llmModels.id, bot.llm_model.id));
    const sent = await call({ temperature: null });
    expect(sent).toMatchObject({ temperature: chatbot!.temperature, top_p: chatbot!.topP, max_tokens: model!.maxOutputTokens });
    for (const absent of ['stop', 'seed', 'presence_penalty', 'frequency_penalty']) expect(sent).not.toHaveProperty(absent);

    expect((await call({ max_tokens: model!.contextLimit * 10 })).max_tokens).toBe(model!.maxOutputTokens);
  });
});

describe('an answer the server could not save', () => {
  let key: string;
  let bot: { id: number; hash_id: string };

  beforeAll(async () => {
    upstream.setBehaviour(LONG_ANSWERS);
    ({ bot, key } = await upstreamKey('unsaved'));
  });
  afterAll(() => upstream.setBehaviour(QUICK_ANSWERS));

  /** Waits until the call's answer has streamed a little, then has a sweep take it over, as if its lease had run out. */
  async function takeOverTheAnswer() {
    for (;;) {
      const [answer] = await upstreamServer.db
        .select()
        .from(sessionMessages)
        .where(and(eq(sessionMessages.streaming, true), sql`${sessionMessages.text} <> ''`));
      if (answer) {
        await upstreamServer.db
          .update(sessionMessages)
          .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
          .where(eq(sessionMessages.id, answer.id));
        if ((await upstreamServer.app.sweepAbandonedAnswers()) === 1) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('is a 503 answer_not_saved, never a 200 with its text', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${upstreamServer.apiBase}/openai`, maxRetries: 0 });
    const call = openai.chat.completions.create(ask(bot.hash_id) as OpenAI.ChatCompletionCreateParamsNonStreaming).catch((error: unknown) => error);
    await takeOverTheAnswer();
    const error = await call;
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 503, code: 'answer_not_saved', type: 'server_error' });
  });

  it('ends a stream with an error chunk, without a finish chunk or [DONE]', async () => {
    const response = await fetch(`${upstreamServer.apiBase}/openai/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask(bot.hash_id), stream: true }),
    });
    const body = response.text();
    await takeOverTheAnswer();
    const frames = (await body).split('\n\n').filter(Boolean);
    expect(frames).not.toContain('data: [DONE]');
    expect(JSON.parse(frames.at(-1)!.slice('data: '.length))).toMatchObject({ error: { code: 'answer_not_saved', type: 'server_error' } });
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice('data: '.length)) as OpenAI.ChatCompletionChunk);
    expect(chunks.every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
  });
});

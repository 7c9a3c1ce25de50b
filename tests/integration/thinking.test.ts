import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

const REASONING = ['Let me', ' weigh', ' the options', '.'];

interface Setup {
  server: TestServer;
  token: string;
  chatbots: Record<'general' | 'quick', number>;
}

async function setUp(server: TestServer): Promise<Setup> {
  const api = apiClient(server);
  const { access_token: token } = await api.signIn(DEMO_MEMBER);
  const list = await api.call('/chatbots/?include_default=true', { token });
  const byName = (name: string) => list.body.items.find((bot: { en_name: string }) => bot.en_name === name);
  expect(byName('General Assistant').llm_model.supports_thinking).toBe(true);
  expect(byName('Quick Helper').llm_model.supports_thinking).toBe(false);
  return { server, token, chatbots: { general: byName('General Assistant').id, quick: byName('Quick Helper').id } };
}

function send({ server, token }: Setup, chatbotId: number, body: Record<string, unknown>) {
  return fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify(body),
  });
}

async function answerInHistory({ server, token }: Setup, hash: string) {
  const history = await apiClient(server).call(`/sessions/${hash}/history/`, { token });
  return history.body.items.find((message: { speaker_type: string }) => message.speaker_type === 'chatbot');
}

describe('thinking mode through the OpenAI-compatible provider', () => {
  let upstream: FakeLlmUpstream;
  let setup: Setup;
  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    setup = await setUp(await startTestServer({ llm: { baseUrl: upstream.baseUrl } }));
  });
  afterAll(async () => {
    await setup?.server.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.setBehaviour({ chunks: DEFAULT_FAKE_CHUNKS, reasoningChunks: undefined, delayMs: 0 }));

  it('asks a reasoning model for reasoning, streams its reasoning_content as thinking frames and keeps it with the answer', async () => {
    upstream.setBehaviour({ reasoningChunks: REASONING, delayMs: 40 });
    const response = await send(setup, setup.chatbots.general, { text: 'Which option?', thinking: true });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);

    expect(upstream.requests.at(-1)!.body.reasoning_effort).toBe('medium');
    const thinking = frames.filter((f) => f.type === 'thinking');
    expect(thinking.map((f) => f.delta).join('')).toBe(REASONING.join(''));
    // All of the reasoning comes before the answer.
    const firstText = frames.findIndex((f) => f.type === 'text');
    expect(frames.findLastIndex((f) => f.type === 'thinking')).toBeLessThan(firstText);
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });

    const answer = await answerInHistory(setup, meta.session_hash_id);
    expect(answer.text).toBe(DEFAULT_FAKE_CHUNKS.join(''));
    expect(answer.reasoning).toBe(REASONING.join(''));
    // Four reasoning chunks 40 ms apart, the first answer chunk 40 ms after the last one.
    expect(answer.reasoning_ms).toBeGreaterThanOrEqual(100);
    expect(answer.reasoning_ms).toBeLessThan(5000);
  });

  it('does not ask for reasoning without thinking mode, nor from a model that cannot reason', async () => {
    const plain = await send(setup, setup.chatbots.general, { text: 'Hi' });
    await plain.text();
    expect(upstream.requests.at(-1)!.body).not.toHaveProperty('reasoning_effort');

    const lowCost = await send(setup, setup.chatbots.quick, { text: 'Hi', thinking: true });
    const meta = JSON.parse(lowCost.headers.get('x-chat-meta')!);
    const frames = await readFrames(lowCost);
    expect(upstream.requests.at(-1)!.body).not.toHaveProperty('reasoning_effort');
    expect(frames.some((f) => f.type === 'thinking')).toBe(false);
    const answer = await answerInHistory(setup, meta.session_hash_id);
    expect(answer).toMatchObject({ reasoning: null, reasoning_ms: null });
  });

  it('keeps the reasoning of an answer that failed while the model was still thinking', async () => {
    upstream.setBehaviour({ reasoningChunks: REASONING, chunks: ['never'], dropAfterChunks: 0 });
    const response = await send(setup, setup.chatbots.general, { text: 'Think hard', thinking: true });
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    expect(
      frames
        .filter((f) => f.type === 'thinking')
        .map((f) => f.delta)
        .join(''),
    ).toBe(REASONING.join(''));
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'error' });
    const answer = await answerInHistory(setup, meta.session_hash_id);
    expect(answer).toMatchObject({ interrupted: 'failed', reasoning: REASONING.join('') });
    upstream.setBehaviour({ dropAfterChunks: undefined });
  });
});

describe('thinking mode on the offline demo model', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp(await startTestServer({ config: { DEMO_TOKEN_DELAY_MS: 5 } }));
  });
  afterAll(async () => {
    await setup?.server.close();
  });

  it('reasons first, then answers; the history shows the reasoning and how long it took', async () => {
    const response = await send(setup, setup.chatbots.general, { text: 'Plan my week', thinking: true });
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    const reasoning = frames
      .filter((f) => f.type === 'thinking')
      .map((f) => f.delta)
      .join('');
    expect(reasoning).toMatch(/^Demo reasoning:/);
    expect(frames.findLastIndex((f) => f.type === 'thinking')).toBeLessThan(frames.findIndex((f) => f.type === 'text'));
    const answer = await answerInHistory(setup, meta.session_hash_id);
    expect(answer.reasoning).toBe(reasoning);
    expect(answer.reasoning_ms).toBeGreaterThan(0);
  });

  it('does not reason without thinking mode', async () => {
    const frames = await readFrames(await send(setup, setup.chatbots.general, { text: 'Plan my week' }));
    expect(frames.some((f) => f.type === 'thinking')).toBe(false);
    expect(frames.some((f) => f.type === 'text')).toBe(true);
  });
});

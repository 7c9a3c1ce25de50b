import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { members } from '../../src/server/db/schema';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

/** A member's first exchange in a new session; returns its hash id. */
async function firstExchange(server: TestServer, token: string, chatbotId: number, text: string): Promise<string> {
  const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify({ text }),
  });
  expect(response.status).toBe(200);
  await readFrames(response);
  return JSON.parse(response.headers.get('x-chat-meta')!).session_hash_id;
}

async function signedIn(server: TestServer) {
  const api = apiClient(server);
  const { access_token: token, member } = await api.signIn(DEMO_MEMBER);
  const chatbotId = (await api.call('/chatbots/?include_default=true', { token })).body.items[0].id as number;
  const setLanguage = (language: string) =>
    server.db
      .update(members)
      .set({ language: language as 'ko' })
      .where(eq(members.id, member.id));
  const title = (hash: string) => api.call(`/sessions/${hash}/generate-title/`, { method: 'PATCH', token });
  return { token, chatbotId, setLanguage, title };
}

describe('PATCH /sessions/{hash}/generate-title/ through an OpenAI-compatible model', () => {
  let upstream: FakeLlmUpstream;
  let server: TestServer;
  let member: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    server = await startTestServer({ llm: { baseUrl: upstream.baseUrl, model: 'fake-model' } });
    member = await signedIn(server);
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.setBehaviour({ chunks: DEFAULT_FAKE_CHUNKS, failStatus: undefined }));

  it('asks the chatbot’s model for a short title in the member’s language (ko) and tidies its answer', async () => {
    await member.setLanguage('ko');
    const hash = await firstExchange(server, member.token, member.chatbotId, '부산에서 가족과 주말 여행 계획을 세워 주세요');
    upstream.setBehaviour({ chunks: ['제목: "부산 가족 주말 여행 계획."'] });
    const before = upstream.requests.length;
    const titled = await member.title(hash);
    expect(titled.status).toBe(200);
    expect(titled.body.title).toBe('부산 가족 주말 여행 계획');

    const request = upstream.requests[before]!;
    expect(request.body.stream).not.toBe(true);
    const [system, user] = request.body.messages!;
    expect(system).toMatchObject({ role: 'system', content: expect.stringContaining('in Korean') });
    expect(String(user!.content)).toContain('부산에서 가족과 주말 여행 계획을 세워 주세요');
    // The first answer is part of what the model reads.
    expect(String(user!.content)).toContain('Hello from the fake upstream.');
  });

  it('asks in English for an English-speaking member', async () => {
    await member.setLanguage('en');
    const hash = await firstExchange(server, member.token, member.chatbotId, 'How do I bake sourdough bread at home?');
    upstream.setBehaviour({ chunks: ['Home Sourdough Baking'] });
    const before = upstream.requests.length;
    expect((await member.title(hash)).body.title).toBe('Home Sourdough Baking');
    expect(upstream.requests[before]!.body.messages![0]!.content).toContain('in English');
  });

  it('falls back to the first message, cut at 60 characters, when the model fails', async () => {
    const text = 'A very long first question that certainly goes on for more than sixty characters in all';
    const hash = await firstExchange(server, member.token, member.chatbotId, text);
    upstream.setBehaviour({ failStatus: 500 });
    const titled = await member.title(hash);
    expect(titled.status).toBe(200);
    expect(Array.from(titled.body.title as string).length).toBeLessThanOrEqual(60);
    expect(titled.body.title).toMatch(/^A very long first question .*…$/);
  });

  it('falls back to the first message when the model answers nothing', async () => {
    const hash = await firstExchange(server, member.token, member.chatbotId, 'Short question');
    upstream.setBehaviour({ chunks: ['  '] });
    expect((await member.title(hash)).body.title).toBe('Short question');
  });
});

describe('titles from the embedded demo model (offline)', () => {
  let server: TestServer;
  let member: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    server = await startTestServer();
    member = await signedIn(server);
  });
  afterAll(() => server?.close());

  it('names the session with the words of the first question, whole words without the asking, and lists it so', async () => {
    await member.setLanguage('ko');
    const korean = await firstExchange(server, member.token, member.chatbotId, '서울 맛집 추천해 주세요?');
    expect((await member.title(korean)).body.title).toBe('서울 맛집 추천');

    await member.setLanguage('en');
    const english = await firstExchange(server, member.token, member.chatbotId, 'Recipes for a rainy day at home, please');
    expect((await member.title(english)).body.title).toBe('Recipes for a rainy day');
    const listed = await apiClient(server).call('/sessions/', { token: member.token });
    expect(listed.body.items.slice(0, 2).map((session: { title: string }) => session.title)).toEqual(['Recipes for a rainy day', '서울 맛집 추천']);
  });
});

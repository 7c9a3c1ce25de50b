import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

let upstream: FakeLlmUpstream;
let server: TestServer;
let demoServer: TestServer;

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  [server, demoServer] = await Promise.all([
    startTestServer({ llm: { baseUrl: upstream.baseUrl }, extraTenants: ['other'] }),
    startTestServer({ database: 'pglite' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), demoServer?.close()]);
  await upstream?.close();
});

async function signedIn(on: TestServer, tenant?: string) {
  const api = apiClient(on);
  const { access_token: token } = await api.signIn(DEMO_MEMBER, tenant);
  const list = await api.call('/chatbots/?include_default=true', { token, tenant });
  const general = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id as number;
  return { api, token, general };
}

function send(on: TestServer, token: string, chatbotId: number, body: Record<string, unknown>, tenant?: string) {
  return fetch(`${on.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token, ...(tenant ? { 'x-subdomain': tenant } : {}) },
    body: JSON.stringify(body),
  });
}

describe('GET /task-modes/', () => {
  it('lists the tenant’s task modes to its members, and only its own', async () => {
    const { api, token } = await signedIn(server);
    const list = await api.call('/task-modes/', { token });
    expect(list.status).toBe(200);
    expect(list.body.map((mode: { mode_name: string }) => mode.mode_name)).toEqual(['Summary', 'Translation', 'Brainstorm']);
    expect(list.body[0]).toEqual({ id: expect.any(Number), ko_name: '요약', en_name: 'Summary', mode_name: 'Summary' });

    const other = await signedIn(server, 'other');
    const otherList = await other.api.call('/task-modes/', { token: other.token, tenant: 'other' });
    const ownIds = new Set(list.body.map((mode: { id: number }) => mode.id));
    expect(otherList.body).toHaveLength(3);
    expect(otherList.body.some((mode: { id: number }) => ownIds.has(mode.id))).toBe(false);

    expect((await api.call('/task-modes/')).status).toBe(401);
  });
});

describe('task_mode_id in a send', () => {
  it('gives the model the task mode’s instructions after the chatbot’s own', async () => {
    const { api, token, general } = await signedIn(server);
    const [summary] = (await api.call('/task-modes/', { token })).body;
    const response = await send(server, token, general, { text: 'Long text to shorten', task_mode_id: summary.id });
    expect(response.status).toBe(200);
    await response.text();
    const system = upstream.requests.at(-1)!.body.messages?.[0];
    expect(system?.role).toBe('system');
    expect(String(system?.content)).toMatch(/^You are a helpful, concise assistant\.[\s\S]*\n\nTask mode: summary\. Answer with a short summary/);

    await (await send(server, token, general, { text: 'No mode' })).text();
    expect(String(upstream.requests.at(-1)!.body.messages?.[0]?.content)).not.toContain('Task mode');
  });

  it('404 for a task mode of another tenant', async () => {
    const { token, general } = await signedIn(server);
    const other = await signedIn(server, 'other');
    const [foreign] = (await other.api.call('/task-modes/', { token: other.token, tenant: 'other' })).body;
    const response = await send(server, token, general, { text: 'Hi', task_mode_id: foreign.id });
    expect(response.status).toBe(404);
  });

  it('the demo model says which task mode it answered in', async () => {
    const { api, token, general } = await signedIn(demoServer);
    const modes = (await api.call('/task-modes/', { token })).body;
    const translation = modes.find((mode: { mode_name: string }) => mode.mode_name === 'Translation');
    const frames = await readFrames(await send(demoServer, token, general, { text: 'Good morning', task_mode_id: translation.id }));
    const text = frames.filter((f) => f.type === 'text').map((f) => f.delta).join('');
    expect(text).toMatch(/^Task mode: \*\*Translation\*\*/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
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
    const text = frames
      .filter((f) => f.type === 'text')
      .map((f) => f.delta)
      .join('');
    expect(text).toMatch(/^Task mode: \*\*Translation\*\*/);
  });
});

describe('the console’s task modes (/admin/task-modes/)', () => {
  it('is for admins: 401 without a token, 403 for a member, 404 for another tenant’s mode', async () => {
    const { api, token } = await signedIn(server);
    expect((await api.call('/admin/task-modes/')).status).toBe(401);
    expect((await api.call('/admin/task-modes/', { token })).status).toBe(403);
    expect((await api.call('/admin/task-modes/', { method: 'POST', token, body: { en_name: 'X', instructions: 'x' } })).status).toBe(403);
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const other = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
    const [foreign] = (await api.call('/admin/task-modes/', { token: other, tenant: 'other' })).body.items;
    expect((await api.call(`/admin/task-modes/${foreign.id}/`, { method: 'PATCH', token: admin, body: { instructions: 'mine' } })).status).toBe(404);
    expect((await api.call(`/admin/task-modes/${foreign.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
  });

  it('needs one of two names, each unique in its language; the chooser shows the reader’s language’s name, else the other', async () => {
    const api = apiClient(server);
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const { token: member } = await signedIn(server);
    const memberId = (await api.signIn(DEMO_MEMBER)).member.id;
    const create = (body: object) => api.call('/admin/task-modes/', { method: 'POST', token: admin, body });
    const patch = (id: number, body: object) => api.call(`/admin/task-modes/${id}/`, { method: 'PATCH', token: admin, body });

    const koOnly = await create({ ko_name: ' 교정 ', instructions: 'Task mode: proofreading.' });
    expect(koOnly).toMatchObject({ status: 200, body: { ko_name: '교정', en_name: '', mode_name: '교정', instructions: 'Task mode: proofreading.' } });
    // The spec's single `mode_name` from the (English) demo admin is the English name.
    const enOnly = await create({ mode_name: 'Outline', instructions: 'Task mode: outline.' });
    expect(enOnly).toMatchObject({ status: 200, body: { ko_name: '', en_name: 'Outline', mode_name: 'Outline' } });
    expect((await create({ instructions: 'x' })).status).toBe(400);
    expect((await create({ ko_name: '  ', instructions: 'x' })).status).toBe(400);
    expect((await create({ en_name: 'Blank' })).status).toBe(400);
    expect(await create({ en_name: 'SUMMARY', instructions: 'x' })).toMatchObject({
      status: 409,
      body: { code: 'task_mode_name_taken', details: { field: 'en_name' } },
    });
    expect(await create({ ko_name: '교정', instructions: 'x' })).toMatchObject({ status: 409, body: { details: { field: 'ko_name' } } });
    expect(await patch(enOnly.body.id, { en_name: '' })).toMatchObject({ status: 422, body: { code: 'task_mode_name_required' } });

    const names = async () => (await api.call('/task-modes/', { token: member })).body.map((mode: { mode_name: string }) => mode.mode_name);
    expect(await names()).toEqual(['Summary', 'Translation', 'Brainstorm', '교정', 'Outline']);
    await api.call(`/members/${memberId}/`, { method: 'PATCH', token: member, body: { language: 'ko' } });
    try {
      expect(await names()).toEqual(['요약', '번역', '아이디어', '교정', 'Outline']);
    } finally {
      await api.call(`/members/${memberId}/`, { method: 'PATCH', token: member, body: { language: 'en' } });
    }

    expect(await patch(koOnly.body.id, { en_name: 'Proofread', instructions: 'Task mode: proofreading, gently.' })).toMatchObject({
      status: 200,
      body: { ko_name: '교정', en_name: 'Proofread', mode_name: 'Proofread', instructions: 'Task mode: proofreading, gently.' },
    });
    for (const mode of [koOnly, enOnly]) expect((await api.call(`/admin/task-modes/${mode.body.id}/`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await api.call(`/admin/task-modes/${koOnly.body.id}/`, { method: 'DELETE', token: admin })).status).toBe(404);
    expect(await names()).toEqual(['Summary', 'Translation', 'Brainstorm']);
  });
});

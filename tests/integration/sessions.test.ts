import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionMessages, sessions } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;
let chatbotId: number;

/** Starts a session through the chat endpoint (the embedded demo model answers). */
async function chat(text: string, extra: Record<string, unknown> = {}, bot = chatbotId) {
  const response = await fetch(`${server.apiBase}/chatbots/${bot}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify({ text, ...extra }),
  });
  expect(response.status).toBe(200);
  const meta = JSON.parse(response.headers.get('x-chat-meta')!);
  return { meta, frames: await readFrames(response) };
}

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
  token = (await api.signIn(DEMO_MEMBER)).access_token;
  const list = await api.call('/chatbots/?include_default=true', { token });
  chatbotId = list.body.items[0].id;
});
afterAll(() => server?.close());

describe('the embedded demo model', () => {
  it('streams a clearly labelled answer token by token in the member language', async () => {
    const { frames } = await chat('What can you do?');
    const deltas = frames.filter((f) => f.type === 'text');
    expect(deltas.length).toBeGreaterThan(10);
    const text = deltas.map((f) => f.delta).join('');
    expect(text).toMatch(/^\*\*Demo model\*\*/);
    expect(text).toContain('What can you do?');
    expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });

    await api.call(`/members/${(await api.signIn(DEMO_MEMBER)).member.id}/`, { method: 'PATCH', token, body: { language: 'ko' } });
    const korean = await chat('안녕하세요');
    expect(
      korean.frames
        .filter((f) => f.type === 'text')
        .map((f) => f.delta)
        .join(''),
    ).toMatch(/^\*\*데모 모델\*\*/);
  });
});

describe('GET /sessions/', () => {
  it('lists the member’s own sessions, most recent chat first, filtered by chatbot', async () => {
    const older = await chat('older');
    const newer = await chat('newer');
    const result = await api.call('/sessions/', { token });
    expect(result.status).toBe(200);
    expect(result.body.page_size).toBe(30);
    const hashes = result.body.items.map((s: { hash_id: string }) => s.hash_id);
    expect(hashes.indexOf(newer.meta.session_hash_id)).toBeLessThan(hashes.indexOf(older.meta.session_hash_id));
    expect(result.body.items[0]).toMatchObject({ creator_name: 'Demo Member', chatbot_id: chatbotId, chatbot: { id: chatbotId } });

    const otherBot = (await api.call('/chatbots/?include_default=true', { token })).body.items[1].id;
    await chat('elsewhere', {}, otherBot);
    const filtered = await api.call(`/sessions/?chatbot_id=${otherBot}`, { token });
    expect(filtered.body.items.every((s: { chatbot_id: number }) => s.chatbot_id === otherBot)).toBe(true);
    expect(filtered.body.total_items).toBe(1);

    const paged = await api.call('/sessions/?size=1&page=2', { token });
    expect(paged.body).toMatchObject({ page: 2, page_size: 1, total_pages: result.body.total_items + 1 });
  });

  it('does not show another member’s sessions', async () => {
    await chat('private to the member');
    const adminToken = (await api.signIn(DEMO_ADMIN)).access_token;
    const mine = await api.call('/sessions/', { token });
    const adminView = await api.call('/sessions/', { token: adminToken });
    expect(adminView.body.total_items).toBe(0);
    const hash = mine.body.items[0].hash_id;
    expect((await api.call(`/sessions/${hash}/`, { token: adminToken })).status).toBe(404);
  });
});

describe('GET /sessions/{hash}/history/', () => {
  it('pages backwards 20 at a time with first_id, oldest first within a page', async () => {
    const { meta } = await chat('message 0');
    const [session] = await server.db.select().from(sessions).where(eq(sessions.hashId, meta.session_hash_id));
    // One chain, each message following the one before (as sends save them).
    let parentId = meta.chatbot_message_id as number;
    for (let i = 0; i < 28; i++) {
      const [row] = await server.db
        .insert(sessionMessages)
        .values({ tenantId: session!.tenantId, sessionId: session!.id, parentId, speakerType: i % 2 === 0 ? 'member' : 'chatbot', text: `message ${i + 1}` })
        .returning({ id: sessionMessages.id });
      parentId = row!.id;
    }
    const latest = await api.call(`/sessions/${meta.session_hash_id}/history/`, { token });
    expect(latest.status).toBe(200);
    expect(latest.body.items).toHaveLength(20);
    expect(latest.body.has_more).toBe(true);
    expect(latest.body.items.at(-1).text).toBe('message 28');
    expect(latest.body.items[0].text).toBe('message 9');
    expect(latest.body.context_tokens).toBeGreaterThan(0);

    const older = await api.call(`/sessions/${meta.session_hash_id}/history/?first_id=${latest.body.items[0].id}`, { token });
    expect(older.body.items).toHaveLength(10);
    expect(older.body.has_more).toBe(false);
    expect(older.body.items[0]).toMatchObject({ text: 'message 0', speaker_type: 'member', files: [], interrupted: null });
    expect(older.body.items.at(-1).text).toBe('message 8');
  });
});

describe('PATCH /sessions/{hash}/ and generate-title', () => {
  it('renames a session', async () => {
    const { meta } = await chat('rename me');
    const renamed = await api.call(`/sessions/${meta.session_hash_id}/`, { method: 'PATCH', token, body: { title: '  Trip plans  ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Trip plans');
    expect((await api.call(`/sessions/${meta.session_hash_id}/`, { token })).body.title).toBe('Trip plans');
  });

  it('answers 404 for an unknown session', async () => {
    const result = await api.call('/sessions/doesnotexist/', { method: 'PATCH', token, body: { title: 'x' } });
    expect(result.status).toBe(404);
  });

  it('titles the session with the chatbot’s model (the demo model uses the words of the first message)', async () => {
    const { meta } = await chat('   Plan a   weekend trip to Busan with my family   ');
    const titled = await api.call(`/sessions/${meta.session_hash_id}/generate-title/`, { method: 'PATCH', token });
    expect(titled.status).toBe(200);
    expect(titled.body.title).toBe('Plan a weekend trip to Busan');
  });

  it('answers 403 no_history for a session without messages', async () => {
    const { meta } = await chat('soon gone');
    const [session] = await server.db.select().from(sessions).where(eq(sessions.hashId, meta.session_hash_id));
    await server.db.delete(sessionMessages).where(eq(sessionMessages.sessionId, session!.id));
    const result = await api.call(`/sessions/${meta.session_hash_id}/generate-title/`, { method: 'PATCH', token });
    expect(result.status).toBe(403);
    expect(result.body.code).toBe('no_history');
  });
});

describe('DELETE /sessions/{hash}/', () => {
  it('deletes the session and its messages', async () => {
    const { meta } = await chat('delete me');
    const deleted = await api.call(`/sessions/${meta.session_hash_id}/`, { method: 'DELETE', token });
    expect(deleted.status).toBe(200);
    expect((await api.call(`/sessions/${meta.session_hash_id}/`, { token })).status).toBe(404);
    expect((await api.call(`/sessions/${meta.session_hash_id}/history/`, { token })).status).toBe(404);
    expect((await api.call(`/sessions/${meta.session_hash_id}/`, { method: 'DELETE', token })).status).toBe(404);
  });
});

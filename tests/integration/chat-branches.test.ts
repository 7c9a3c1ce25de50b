import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditLedger, members, sessionMessages, sessions, usageRecords } from '../../src/server/db/schema';
import { type ChatMeta, chatMetaSchema } from '../../src/shared/api/chat';
import { DEFAULT_FAKE_CHUNKS, type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, jsonBody, readFrames } from './helpers/client';

let upstream: FakeLlmUpstream;
let server: TestServer;
let api: ReturnType<typeof apiClient>;
let token: string;
let memberId: number;
let chatbotId: number;

interface Item {
  id: number;
  text: string;
  speaker_type: 'member' | 'chatbot';
  parent_id: number | null;
  sibling_count: number;
  sibling_position: number;
}

async function post(body: Record<string, unknown>, as = token) {
  return fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': as },
    body: JSON.stringify(body),
  });
}

/** Sends and reads the whole answer; returns the stream's metadata and the answer's text. */
async function send(body: Record<string, unknown>): Promise<{ meta: ChatMeta; text: string }> {
  const response = await post(body);
  expect(response.status).toBe(200);
  const meta = chatMetaSchema.parse(JSON.parse(response.headers.get('x-chat-meta')!));
  const frames = await readFrames(response);
  expect(frames.at(-1)).toEqual({ type: 'end', finish_reason: 'stop' });
  return { meta, text: frames.flatMap((frame) => (frame.type === 'text' ? [frame.delta as string] : [])).join('') };
}

async function history(hash: string, query = '', as = token): Promise<{ items: Item[]; has_more: boolean; context_tokens: number }> {
  const result = await api.call(`/sessions/${hash}/history/${query}`, { token: as });
  expect(result.status).toBe(200);
  return result.body;
}

const texts = (items: Item[]) => items.map((item) => item.text);

/** What the model was asked last: its conversation, as role and text. */
const lastAsked = () =>
  upstream.requests
    .at(-1)!
    .body.messages!.filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${String(m.content)}`);

/** A session of two turns: "first question" and "second question", each answered. */
async function twoTurns() {
  upstream.setBehaviour({ chunks: ['first answer'] });
  const first = await send({ text: 'first question' });
  upstream.setBehaviour({ chunks: ['second answer'] });
  const second = await send({ text: 'second question', session_hash_id: first.meta.session_hash_id });
  return { hash: first.meta.session_hash_id, first: first.meta, second: second.meta };
}

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl, apiKey: 'fake-key', model: 'fake-model' } });
  api = apiClient(server);
  const session = await api.signIn(DEMO_MEMBER);
  token = session.access_token;
  memberId = session.member.id;
  const list = await api.call('/chatbots/?include_default=true', { token });
  chatbotId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});
beforeEach(() => upstream.setBehaviour({ chunks: DEFAULT_FAKE_CHUNKS, delayMs: 0, failStatus: undefined, dropAfterChunks: undefined }));

describe('the session tree', () => {
  it('chains each message to the one before it, every point with one version', async () => {
    const { hash, first, second } = await twoTurns();
    const { items } = await history(hash);
    expect(items.map((item) => [item.id, item.parent_id, item.sibling_count, item.sibling_position])).toEqual([
      [first.member_message_id, null, 1, 1],
      [first.chatbot_message_id, first.member_message_id, 1, 1],
      [second.member_message_id, first.chatbot_message_id, 1, 1],
      [second.chatbot_message_id, second.member_message_id, 1, 1],
    ]);
  });
});

describe('regenerate', () => {
  it('answers the same question again as a paid sibling, and the earlier answer stays one arrow away', async () => {
    const { hash, second } = await twoTurns();
    upstream.setBehaviour({ chunks: ['second answer, again'] });
    const again = await send({ regenerate_message_id: second.member_message_id, session_hash_id: hash });
    expect(again.meta.member_message_id).toBe(second.member_message_id);
    expect(again.meta.session_created).toBe(false);
    // The model saw the branch up to the question and the stored question, not the earlier answer.
    expect(lastAsked()).toEqual(['user: first question', 'assistant: first answer', 'user: second question']);

    // Paid like a send: a reservation, then a usage row with its credits.
    const [reservation] = await server.db.select().from(creditLedger).where(eq(creditLedger.messageId, again.meta.chatbot_message_id));
    expect(reservation?.kind).toBe('reservation');
    const [usage] = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, again.meta.chatbot_message_id));
    expect(Number(usage!.credits)).toBeGreaterThan(0);

    const { items } = await history(hash);
    expect(texts(items)).toEqual(['first question', 'first answer', 'second question', 'second answer, again']);
    expect(items.at(-1)).toMatchObject({ parent_id: second.member_message_id, sibling_count: 2, sibling_position: 2 });

    const switched = await api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token, body: { message_id: again.meta.chatbot_message_id, position: 1 } });
    expect(switched.status).toBe(200);
    expect(texts(switched.body.items).at(-1)).toBe('second answer');
    expect(switched.body.items.at(-1)).toMatchObject({ sibling_count: 2, sibling_position: 1 });
  });

  it('refuses a regeneration that brings text, or no session, or also edits (400)', async () => {
    const { hash, second } = await twoTurns();
    for (const body of [
      { regenerate_message_id: second.member_message_id, session_hash_id: hash, text: 'new words' },
      { regenerate_message_id: second.member_message_id },
      { regenerate_message_id: second.member_message_id, edit_message_id: second.member_message_id, session_hash_id: hash },
    ]) {
      expect((await post(body)).status).toBe(400);
    }
  });

  it('is refused with 402 when the credits are depleted, leaving the session as it was', async () => {
    const { hash, second } = await twoTurns();
    await server.db.update(members).set({ creditQuota: 0 }).where(eq(members.id, memberId));
    try {
      const refused = await post({ regenerate_message_id: second.member_message_id, session_hash_id: hash });
      expect(refused.status).toBe(402);
      expect((await jsonBody(refused)).code).toBe('credits_depleted');
    } finally {
      await server.db.update(members).set({ creditQuota: null }).where(eq(members.id, memberId));
    }
    const { items } = await history(hash);
    expect(texts(items)).toEqual(['first question', 'first answer', 'second question', 'second answer']);
    expect(items.every((item) => item.sibling_count === 1)).toBe(true);
  });

  it('answers 404 for another member’s session or a message of another session', async () => {
    const { hash, second } = await twoTurns();
    const other = await twoTurns();
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    expect((await post({ regenerate_message_id: second.member_message_id, session_hash_id: hash }, admin)).status).toBe(404);
    expect((await post({ regenerate_message_id: other.second.member_message_id, session_hash_id: hash })).status).toBe(404);
    // An answer is no question to ask again.
    expect((await post({ regenerate_message_id: second.chatbot_message_id, session_hash_id: hash })).status).toBe(404);
    const foreignSwitch = await api.call(`/sessions/${hash}/branch/`, {
      method: 'PUT',
      token: admin,
      body: { message_id: second.chatbot_message_id, position: 1 },
    });
    expect(foreignSwitch.status).toBe(404);
    const noSuchVersion = await api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token, body: { message_id: second.chatbot_message_id, position: 2 } });
    expect(noSuchVersion.status).toBe(404);
  });
});

describe('edit and resend', () => {
  it('starts a new branch from the edited message; the old one, with what followed it, stays reachable', async () => {
    const { hash, first, second } = await twoTurns();
    upstream.setBehaviour({ chunks: ['answer to the edit'] });
    const edited = await send({ edit_message_id: first.member_message_id, text: 'first question, edited', session_hash_id: hash });
    expect(lastAsked()).toEqual(['user: first question, edited']);

    const { items } = await history(hash);
    expect(texts(items)).toEqual(['first question, edited', 'answer to the edit']);
    expect(items[0]).toMatchObject({ id: edited.meta.member_message_id, parent_id: null, sibling_count: 2, sibling_position: 2 });

    const back = await api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token, body: { message_id: edited.meta.member_message_id, position: 1 } });
    expect(texts(back.body.items)).toEqual(['first question', 'first answer', 'second question', 'second answer']);
    expect(back.body.items.at(-1).id).toBe(second.chatbot_message_id);
  });
});

describe('the active branch', () => {
  it('is remembered for the session: another device sees it, and the next send continues it', async () => {
    const { hash, second } = await twoTurns();
    await send({ regenerate_message_id: second.member_message_id, session_hash_id: hash });
    const switched = await api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token, body: { message_id: second.member_message_id + 1, position: 1 } });
    expect(switched.status).toBe(200);

    const otherDevice = (await api.signIn(DEMO_MEMBER)).access_token;
    expect(texts((await history(hash, '', otherDevice)).items).at(-1)).toBe('second answer');

    upstream.setBehaviour({ chunks: ['third answer'] });
    const third = await send({ text: 'third question', session_hash_id: hash });
    expect(lastAsked()).toEqual([
      'user: first question',
      'assistant: first answer',
      'user: second question',
      'assistant: second answer',
      'user: third question',
    ]);
    const { items } = await history(hash);
    expect(items.at(-2)).toMatchObject({ id: third.meta.member_message_id, parent_id: second.chatbot_message_id });
    expect(texts(items).at(-1)).toBe('third answer');
  });

  it('is what a shared session shows', async () => {
    const { hash, second } = await twoTurns();
    upstream.setBehaviour({ chunks: ['a newer answer'] });
    await send({ regenerate_message_id: second.member_message_id, session_hash_id: hash });
    await api.call(`/sessions/${hash}/`, { method: 'PATCH', token, body: { is_public: true } });
    const shared = await api.call(`/public/sessions/${hash}/history/`);
    expect(shared.status).toBe(200);
    expect(texts(shared.body.items).at(-1)).toBe('a newer answer');
    expect(shared.body.items.at(-1)).toMatchObject({ sibling_count: 2, sibling_position: 2 });
  });

  it('pages 20 at a time along the branch, never into another one', async () => {
    const { hash, second } = await twoTurns();
    // After the first answer: the existing branch (second turn), and a long one of 30 messages beside
    // it, sent as the chat sends them: an edit of the second question, then 14 turns more.
    for (let turn = 0; turn < 15; turn++) {
      upstream.setBehaviour({ chunks: [`long ${2 * turn + 1}`] });
      await send({ text: `long ${2 * turn}`, session_hash_id: hash, ...(turn === 0 ? { edit_message_id: second.member_message_id } : {}) });
    }
    const newest = await history(hash);
    expect(newest.items).toHaveLength(20);
    expect(newest.has_more).toBe(true);
    expect(texts(newest.items)[0]).toBe('long 10');
    expect(texts(newest.items).at(-1)).toBe('long 29');
    const older = await history(hash, `?first_id=${newest.items[0]!.id}`);
    expect(texts(older.items)).toEqual(['first question', 'first answer', ...Array.from({ length: 10 }, (_, i) => `long ${i}`)]);
    expect(older.has_more).toBe(false);
    expect(older.items[2]).toMatchObject({ sibling_count: 2, sibling_position: 2 });
    // The newest page counts the whole branch (not the other one); an older page does not count.
    const branchBytes = [...older.items, ...newest.items].reduce((sum, item) => sum + new TextEncoder().encode(item.text).length, 0);
    expect(newest.context_tokens).toBe(Math.ceil(branchBytes / 4));
    expect(older.context_tokens).toBe(0);
  });
});

describe('showing the branch through a message (a search result)', () => {
  const showThrough = (hash: string, messageId: number, as = token) =>
    api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token: as, body: { message_id: messageId } });

  it('makes an edited-away message’s branch active, continued to its newest message, and a reload shows it', async () => {
    const { hash, first, second } = await twoTurns();
    await send({ edit_message_id: first.member_message_id, text: 'first question, edited', session_hash_id: hash });

    const shown = await showThrough(hash, first.member_message_id);
    expect(shown.status).toBe(200);
    expect(texts(shown.body.items)).toEqual(['first question', 'first answer', 'second question', 'second answer']);
    expect(shown.body.items[0]).toMatchObject({ id: first.member_message_id, sibling_count: 2, sibling_position: 1 });
    expect(shown.body.items.at(-1).id).toBe(second.chatbot_message_id);
    expect(texts((await history(hash)).items)).toEqual(texts(shown.body.items));
  });

  it('leaves the active branch as it is when the message is on it, the member’s choice below it included', async () => {
    const { hash, first, second } = await twoTurns();
    upstream.setBehaviour({ chunks: ['second answer, again'] });
    const again = await send({ regenerate_message_id: second.member_message_id, session_hash_id: hash });
    // The member went back to the older answer: the active leaf is not the newest message.
    await api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token, body: { message_id: again.meta.chatbot_message_id, position: 1 } });

    for (const messageId of [first.member_message_id, second.chatbot_message_id]) {
      const shown = await showThrough(hash, messageId);
      expect(shown.status).toBe(200);
      expect(texts(shown.body.items).at(-1)).toBe('second answer');
    }
    expect(texts((await history(hash)).items).at(-1)).toBe('second answer');
  });

  it('answers 404 for a message of another session or another member’s session, and 400 for a malformed id', async () => {
    const { hash, second } = await twoTurns();
    const other = await twoTurns();
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    expect((await showThrough(hash, other.second.member_message_id)).status).toBe(404);
    expect((await showThrough(hash, second.member_message_id, admin)).status).toBe(404);
    const malformed = await api.call(`/sessions/${hash}/branch/`, { method: 'PUT', token, body: { message_id: 'first' } });
    expect(malformed.status).toBe(400);
    expect(texts((await history(hash)).items).at(-1)).toBe('second answer');
  });
});

describe('the branch size each message stores (ancestor_bytes)', () => {
  it('is what migration 0047 fills in for messages written before it', async () => {
    const { hash, second } = await twoTurns();
    upstream.setBehaviour({ chunks: ['다른 답'] });
    await send({ regenerate_message_id: second.member_message_id, session_hash_id: hash });
    upstream.setBehaviour({ chunks: ['an edited branch'] });
    await send({ text: 'second question, edited', edit_message_id: second.member_message_id, session_hash_id: hash });
    const [session] = await server.db.select().from(sessions).where(eq(sessions.hashId, hash));
    const stored = () =>
      server.db
        .select({ id: sessionMessages.id, bytes: sessionMessages.ancestorBytes })
        .from(sessionMessages)
        .where(eq(sessionMessages.sessionId, session!.id))
        .orderBy(sessionMessages.id);
    const written = await stored();
    expect(written.map((row) => row.bytes).some((bytes) => bytes > 0)).toBe(true);

    await server.db.update(sessionMessages).set({ ancestorBytes: 0 }).where(eq(sessionMessages.sessionId, session!.id));
    const migration = readFileSync(new URL('../../src/server/db/migrations/0047_branch_ancestor_bytes.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').slice(1)) await server.db.execute(sql.raw(statement));
    expect(await stored()).toEqual(written);
  });
});

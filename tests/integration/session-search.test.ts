/**
 * Search across my chats (GET /sessions/?search_term=…): sessions made through the real chat
 * endpoint (the embedded demo model echoes the question in its answer), on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_SEARCH_RANKED_MATCHES_MAX } from '../../src/shared/domain/sessionSearch';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

interface Found {
  hash_id: string;
  title: string | null;
  match: {
    title_ranges: { start: number; end: number }[];
    message_count: number;
    message: { id: number; speaker_type: string; snippet: string; ranges: { start: number; end: number }[] } | null;
  };
}

let server: TestServer;
let api: ReturnType<typeof apiClient>;
let member: string;
let chatbotId: number;

/** One turn through the chat endpoint, in a new session or the given one; returns the session's hash. */
async function chat(as: { token: string; tenant?: string }, text: string, sessionHash?: string, bot = chatbotId): Promise<string> {
  const response = await fetch(`${server.apiBase}/chatbots/${bot}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': as.token, ...(as.tenant ? { 'x-subdomain': as.tenant } : {}) },
    body: JSON.stringify({ text, session_hash_id: sessionHash }),
  });
  expect(response.status).toBe(200);
  const meta = JSON.parse(response.headers.get('x-chat-meta')!) as { session_hash_id: string };
  await readFrames(response);
  return meta.session_hash_id;
}

async function search(term: string, token = member): Promise<Found[]> {
  const result = await api.call(`/sessions/?search_term=${encodeURIComponent(term)}`, { token });
  expect(result.status).toBe(200);
  return result.body.items;
}

const hashes = (found: Found[]) => found.map((session) => session.hash_id);
const marked = (text: string, ranges: { start: number; end: number }[]) => ranges.map(({ start, end }) => text.slice(start, end));

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['acme'] });
  api = apiClient(server);
  member = (await api.signIn(DEMO_MEMBER)).access_token;
  chatbotId = (await api.call('/chatbots/?include_default=true', { token: member })).body.items[0].id;
});
afterAll(() => server?.close());

describe('search across my chats', () => {
  it('finds sessions by title and by message, Korean parts of words included, with the match marked in a snippet', async () => {
    const korean = await chat({ token: member }, '다음 주 회의에서 한국어 검색 기능을 발표합니다');
    const titled = await chat({ token: member }, 'Something unrelated');
    await api.call(`/sessions/${titled}/`, { method: 'PATCH', token: member, body: { title: 'Lighthouse planning' } });

    const byTitle = await search('lighthouse');
    expect(hashes(byTitle)).toEqual([titled]);
    expect(marked(byTitle[0]!.title!, byTitle[0]!.match.title_ranges)).toEqual(['Lighthouse']);
    expect(byTitle[0]!.match.message).toBeNull();

    // Two syllables, and a part of a word with no boundary around it (한국어 → 국어).
    for (const term of ['검색', '국어', '검색 기능']) {
      const found = await search(term);
      expect(hashes(found), term).toEqual([korean]);
      const message = found[0]!.match.message!;
      expect(marked(message.snippet, message.ranges).join(' '), term).toBe(term);
    }
    // The member's message and the demo model's echo of it both contain the words.
    expect((await search('검색'))[0]!.match.message_count).toBe(2);
    expect(await search('검색 lighthouse')).toEqual([]);
  });

  it('cuts a long message around the first match and marks every word, case-insensitively', async () => {
    const long = `${'lorem ipsum '.repeat(40)}the Zebracorn appears here ${'dolor sit '.repeat(40)}`;
    const hash = await chat({ token: member }, long);
    const [found] = await search('ZEBRACORN');
    expect(found!.hash_id).toBe(hash);
    const message = found!.match.message!;
    expect(message.snippet.startsWith('…')).toBe(true);
    expect(message.snippet.endsWith('…')).toBe(true);
    expect(message.snippet.length).toBeLessThan(160);
    expect(marked(message.snippet, message.ranges)).toEqual(['Zebracorn']);
  });

  it('ranks title matches first, then sessions with more matching messages, then the most recent', async () => {
    const once = await chat({ token: member }, 'a note about the aurora');
    const twice = await chat({ token: member }, 'aurora tonight?');
    await chat({ token: member }, 'and the aurora tomorrow?', twice);
    const recentOnce = await chat({ token: member }, 'one more aurora');
    const titled = await chat({ token: member }, 'nothing in here');
    await api.call(`/sessions/${titled}/`, { method: 'PATCH', token: member, body: { title: 'Aurora trip' } });
    expect(hashes(await search('aurora'))).toEqual([titled, twice, recentOnce, once]);
  });

  it('pages the results like the plain list', async () => {
    const page = await api.call('/sessions/?search_term=aurora&size=3&page=2', { token: member });
    expect(page.body).toMatchObject({ total_items: 4, total_pages: 2, page: 2, page_size: 3 });
    expect(page.body.items).toHaveLength(1);
    const beyond = await api.call('/sessions/?search_term=aurora&size=3&page=5', { token: member });
    expect(beyond.body).toMatchObject({ items: [], total_items: 4 });
  });

  it('ranks a term found in very many messages by recency, and pages it with a lower bound of the total', async () => {
    const many = await chat({ token: member }, 'nebulon, the first');
    // More messages than the search counts to the end, all in one old session.
    await server.db.execute(sql`
      insert into session_messages (tenant_id, session_id, speaker_type, text)
      select s.tenant_id, s.id, 'member', 'nebulon filler ' || n
      from sessions s, generate_series(1, ${SESSION_SEARCH_RANKED_MATCHES_MAX}) as n where s.hash_id = ${many}`);
    const older = await chat({ token: member }, 'a nebulon');
    const newest = await chat({ token: member }, 'the last nebulon');
    const titled = await chat({ token: member }, 'nothing here');
    await api.call(`/sessions/${titled}/`, { method: 'PATCH', token: member, body: { title: 'Nebulon notes' } });

    const first = await api.call('/sessions/?search_term=nebulon&size=2', { token: member });
    // Title match first, then the most recent chat, not the session with the most matching messages.
    expect(hashes(first.body.items)).toEqual([titled, newest]);
    expect(first.body).toMatchObject({ total_items: 3, total_pages: 2, total_is_lower_bound: true });
    const second = await api.call('/sessions/?search_term=nebulon&size=2&page=2', { token: member });
    expect(hashes(second.body.items)).toEqual([older, many]);
    // The member's chat turn and the model's echo, and every inserted one: counted for the session shown.
    expect(second.body.items[1].match.message_count).toBe(SESSION_SEARCH_RANKED_MATCHES_MAX + 2);
    expect(second.body).toMatchObject({ total_items: 4, total_pages: 2 });
    expect(second.body.total_is_lower_bound).toBeUndefined();
    const beyond = await api.call('/sessions/?search_term=nebulon&size=2&page=3', { token: member });
    expect(beyond.body).toMatchObject({ items: [], total_items: 4 });
    // Words found in few messages are still counted to the end.
    const rarer = await api.call(`/sessions/?search_term=${encodeURIComponent('nebulon, the first')}`, { token: member });
    expect(rarer.body).toMatchObject({ total_items: 1, items: [{ hash_id: many, match: { message_count: 2 } }] });
    expect(rarer.body.total_is_lower_bound).toBeUndefined();
  });

  it('treats % and _ as the characters themselves', async () => {
    const percent = await chat({ token: member }, 'progress is 100% done_now');
    await chat({ token: member }, 'progress is 1000 doneXnow');
    expect(hashes(await search('100%'))).toEqual([percent]);
    expect(hashes(await search('done_now'))).toEqual([percent]);
    expect(hashes(await search('0%'))).toEqual([percent]);
    // The demo model's answer writes the text as Markdown (`done\_now`): a backslash is literal too.
    expect(hashes(await search('done\\_now'))).toEqual([percent]);
  });

  it('never finds another member’s, another tenant’s, or a deleted session', async () => {
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const acme = (await api.signIn(DEMO_MEMBER, 'acme')).access_token;
    const acmeBot = (await api.call('/chatbots/?include_default=true', { token: acme, tenant: 'acme' })).body.items[0].id;
    await chat({ token: admin }, 'the admin’s own quasar');
    await chat({ token: acme, tenant: 'acme' }, 'acme’s quasar', undefined, acmeBot);
    expect(await search('quasar')).toEqual([]);
    expect(await search('quasar', admin)).toHaveLength(1);

    const mine = await chat({ token: member }, 'my quasar');
    expect(hashes(await search('quasar'))).toEqual([mine]);
    await api.call(`/sessions/${mine}/`, { method: 'DELETE', token: member });
    expect(await search('quasar')).toEqual([]);
  });

  it('answers hostile or oversized terms with a 4xx, never a 5xx', async () => {
    // Too long, too many words, a NUL, a word of one character (in most chats, and no index finds it).
    const refused = ['x'.repeat(201), 'ab cd ef gh ij kl mn op qr', 'nul\u0000byte', 'a', '검색 서'];
    for (const term of refused) {
      const result = await api.call(`/sessions/?search_term=${encodeURIComponent(term)}`, { token: member });
      expect(result.status, term.slice(0, 20)).toBe(400);
    }
    // Not UTF-8 at all.
    expect((await api.call('/sessions/?search_term=%ED%A0%80', { token: member })).status).toBeLessThan(500);
    for (const term of ['x'.repeat(200), "'; drop table sessions; --", '[a-z]+(', '%_%_\\%', '👩‍💻 üb 𝒳𝒳']) {
      expect((await api.call(`/sessions/?search_term=${encodeURIComponent(term)}`, { token: member })).status, term).toBe(200);
    }
    expect((await api.call('/sessions/?search_term=aurora')).status).toBe(401);
  });

  it('lists every session as before when the term is blank', async () => {
    const all = await api.call('/sessions/', { token: member });
    const blank = await api.call('/sessions/?search_term=%20%20', { token: member });
    expect(blank.body.total_items).toBe(all.body.total_items);
    expect(blank.body.items[0].match).toBeUndefined();
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFeedback, sessionMessages } from '../../src/server/db/schema';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

/** Feedback on answers (issue 23): members rate their answers; the console and the chatbot's author read the ratings. */
let server: TestServer;
let api: ReturnType<typeof apiClient>;
const tokens = { member: '', admin: '', otherAdmin: '', otherMember: '' };
let generalId: number;

type Who = keyof typeof tokens;
const tenantOf = (who: Who) => (who === 'otherAdmin' || who === 'otherMember' ? 'other' : undefined);
const call = (who: Who, path: string, method = 'GET', body?: unknown) =>
  api.call(path, { method, token: tokens[who], tenant: tenantOf(who), ...(body === undefined ? {} : { body }) });

/** One turn with the embedded demo model: the session's hash and the answer's id. */
async function turn(who: Who, chatbotId: number, text = 'Hello') {
  const response = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': tokens[who], ...(tenantOf(who) ? { 'x-subdomain': tenantOf(who)! } : {}) },
    body: JSON.stringify({ text }),
  });
  expect(response.status).toBe(200);
  const meta = JSON.parse(response.headers.get('x-chat-meta')!);
  await readFrames(response);
  return { hash: meta.session_hash_id as string, answerId: meta.chatbot_message_id as number, questionId: meta.member_message_id as number };
}

const feedbackPath = (hash: string, id: number) => `/sessions/${hash}/messages/${id}/feedback/`;

beforeAll(async () => {
  server = await startTestServer({ extraTenants: ['other'] });
  api = apiClient(server);
  tokens.member = (await api.signIn(DEMO_MEMBER)).access_token;
  tokens.admin = (await api.signIn(DEMO_ADMIN)).access_token;
  tokens.otherAdmin = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
  tokens.otherMember = (await api.signIn(DEMO_MEMBER, 'other')).access_token;
  const list = await call('member', '/chatbots/?include_default=true');
  generalId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
});
afterAll(() => server?.close());

describe('rating an answer', () => {
  it('rates up, changes to down with a reason, shows it in the history, and takes it back', async () => {
    const { hash, answerId } = await turn('member', generalId);
    const up = await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'up' });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ rating: 'up', reason: null, comment: null });

    const down = await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'down', reason: 'wrong', comment: '  The year is off.  ' });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ rating: 'down', reason: 'wrong', comment: 'The year is off.' });
    expect(await server.db.select().from(answerFeedback).where(eq(answerFeedback.messageId, answerId))).toHaveLength(1);

    const history = await call('member', `/sessions/${hash}/history/`);
    const answer = history.body.items.find((message: { id: number }) => message.id === answerId);
    expect(answer.feedback).toMatchObject({ rating: 'down', reason: 'wrong', comment: 'The year is off.' });
    expect(history.body.items.find((message: { speaker_type: string }) => message.speaker_type === 'member').feedback).toBeNull();

    // Back to up: the reason and comment of the down rating go with it.
    expect((await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'up' })).body).toMatchObject({ rating: 'up', reason: null, comment: null });

    expect((await call('member', feedbackPath(hash, answerId), 'DELETE')).status).toBe(200);
    const after = await call('member', `/sessions/${hash}/history/`);
    expect(after.body.items.find((message: { id: number }) => message.id === answerId).feedback).toBeNull();
    // Taking back what is not there is no error.
    expect((await call('member', feedbackPath(hash, answerId), 'DELETE')).status).toBe(200);
  });

  it('refuses reasons on an up rating, unknown reasons, "other" without words and over-long comments (400)', async () => {
    const { hash, answerId } = await turn('member', generalId);
    const refused = [
      { rating: 'up', reason: 'wrong' },
      { rating: 'up', comment: 'nice' },
      { rating: 'down', reason: 'boring' },
      { rating: 'down', reason: 'other' },
      { rating: 'down', reason: 'other', comment: '   ' },
      { rating: 'down', comment: 'x'.repeat(1001) },
      { rating: 'meh' },
      {},
    ];
    for (const body of refused) {
      const result = await call('member', feedbackPath(hash, answerId), 'POST', body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.code).toBe('validation_error');
    }
    const other = await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'down', reason: 'other', comment: 'Too long-winded' });
    expect(other.body).toMatchObject({ reason: 'other', comment: 'Too long-winded' });
    expect((await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'down' })).body).toMatchObject({ reason: null, comment: null });
  });

  it('404 for another member’s answer, a question, an unknown id and another tenant', async () => {
    const { hash, answerId, questionId } = await turn('member', generalId);
    expect((await call('admin', feedbackPath(hash, answerId), 'POST', { rating: 'up' })).status).toBe(404);
    expect((await call('admin', feedbackPath(hash, answerId), 'DELETE')).status).toBe(404);
    expect((await call('member', feedbackPath(hash, questionId), 'POST', { rating: 'up' })).status).toBe(404);
    expect((await call('member', feedbackPath(hash, 2_000_000_000), 'POST', { rating: 'up' })).status).toBe(404);
    expect((await call('otherMember', feedbackPath(hash, answerId), 'POST', { rating: 'up' })).status).toBe(404);
    // An answer of the member's other session under this session's hash.
    const elsewhere = await turn('member', generalId);
    expect((await call('member', feedbackPath(hash, elsewhere.answerId), 'POST', { rating: 'up' })).status).toBe(404);
    expect(await server.db.select().from(answerFeedback).where(eq(answerFeedback.messageId, answerId))).toHaveLength(0);
  });

  it('refuses an answer that is still being written (409)', async () => {
    const { hash, answerId } = await turn('member', generalId);
    await server.db.update(sessionMessages).set({ streaming: true }).where(eq(sessionMessages.id, answerId));
    const refused = await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'up' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('answer_not_finished');
    await server.db.update(sessionMessages).set({ streaming: false }).where(eq(sessionMessages.id, answerId));
    expect((await call('member', feedbackPath(hash, answerId), 'POST', { rating: 'up' })).status).toBe(200);
  });
});

describe('reading the ratings', () => {
  it('gives admins the counts per chatbot and model, the ratings with names, and a link only to shared chats', async () => {
    const other = (await call('admin', '/chatbots/?include_default=true')).body.items.find((bot: { id: number }) => bot.id !== generalId);
    const before = (await call('admin', `/admin/feedback/?chatbot_id=${other.id}`)).body.summary.totals;
    const shared = await turn('member', other.id);
    const kept = await turn('member', other.id);
    await call('member', feedbackPath(shared.hash, shared.answerId), 'POST', { rating: 'down', reason: 'unsafe', comment: 'Shared one' });
    await call('member', feedbackPath(kept.hash, kept.answerId), 'POST', { rating: 'up' });
    await call('member', `/sessions/${shared.hash}/`, 'PATCH', { is_public: true });

    // Readers of the shared chat do not see how its member rated it.
    const shown = await api.call(`/public/sessions/${shared.hash}/history/`);
    expect(shown.body.items.find((message: { id: number }) => message.id === shared.answerId).feedback).toBeNull();

    const page = await call('admin', `/admin/feedback/?chatbot_id=${other.id}`);
    expect(page.status).toBe(200);
    expect(page.body.summary.totals).toEqual({ up: before.up + 1, down: before.down + 1 });
    const row = page.body.summary.by_chatbot.find((entry: { chatbot: { id: number } }) => entry.chatbot.id === other.id);
    expect(row).toMatchObject({ up: before.up + 1, down: before.down + 1, chatbot: { en_name: other.en_name } });
    // The chatbot breakdown leaves out the chatbot filter: General Assistant is still there to choose.
    expect(page.body.summary.by_chatbot.some((entry: { chatbot: { id: number } }) => entry.chatbot.id === generalId)).toBe(true);
    expect(page.body.summary.by_model.reduce((sum: number, entry: { up: number; down: number }) => sum + entry.up + entry.down, 0)).toBe(
      before.up + before.down + 2,
    );

    const [newest, previous] = page.body.items;
    expect(newest).toMatchObject({ rating: 'up', member: { name: 'Demo Member' }, shared_session_hash: null, chatbot: { id: other.id } });
    expect(previous).toMatchObject({ rating: 'down', reason: 'unsafe', comment: 'Shared one', shared_session_hash: shared.hash });
    expect(previous.model).toMatchObject({ name: expect.any(String) });

    const downs = await call('admin', `/admin/feedback/?chatbot_id=${other.id}&rating=down`);
    expect(downs.body.items.every((item: { rating: string }) => item.rating === 'down')).toBe(true);
    // The rating filter narrows the list, not the counts.
    expect(downs.body.summary.totals).toEqual(page.body.summary.totals);

    const future = new Date(Date.now() + 86_400_000).toISOString();
    const none = await call('admin', `/admin/feedback/?from=${encodeURIComponent(future)}`);
    expect(none.body).toMatchObject({ total_items: 0, summary: { totals: { up: 0, down: 0 }, by_chatbot: [], by_model: [] } });
    const model = previous.model.id;
    const byModel = await call('admin', `/admin/feedback/?llm_model_id=${model}`);
    expect(byModel.body.items.every((item: { model: { id: number } }) => item.model.id === model)).toBe(true);

    expect((await call('member', '/admin/feedback/')).status).toBe(403);
  });

  it('gives a chatbot’s author its counts and comments without names or links, and no one else', async () => {
    const created = await call('member', '/chatbots/', 'POST');
    const own = created.body.id as number;
    expect((await call('member', `/chatbots/${own}/`, 'PATCH', { en_name: 'Tax helper' })).status).toBe(200);
    const first = await turn('member', own);
    const second = await turn('member', own);
    await call('member', feedbackPath(first.hash, first.answerId), 'POST', { rating: 'down', reason: 'unhelpful', comment: 'Too vague' });
    await call('member', feedbackPath(second.hash, second.answerId), 'POST', { rating: 'up' });

    const view = await call('member', `/chatbots/${own}/feedback/?size=1`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ totals: { up: 1, down: 1 }, total_items: 2, total_pages: 2 });
    expect(view.body.items).toHaveLength(1);
    expect(view.body.items[0]).toMatchObject({ rating: 'up' });
    const older = await call('member', `/chatbots/${own}/feedback/?size=1&page=2`);
    expect(older.body.items[0]).toMatchObject({ rating: 'down', reason: 'unhelpful', comment: 'Too vague', model_name: expect.any(String) });
    expect(Object.keys(older.body.items[0]).sort()).toEqual(['comment', 'id', 'model_name', 'rating', 'reason', 'updated_at']);

    // An admin may read it too (they may edit it); a default chatbot is no member's; another tenant does not find it.
    expect((await call('admin', `/chatbots/${own}/feedback/`)).body.totals).toEqual({ up: 1, down: 1 });
    expect((await call('member', `/chatbots/${generalId}/feedback/`)).status).toBe(403);
    expect((await call('otherAdmin', `/chatbots/${own}/feedback/`)).status).toBe(404);
  });

  it('keeps each tenant’s ratings to itself', async () => {
    const otherGeneral = (await call('otherMember', '/chatbots/?include_default=true')).body.items[0].id;
    const theirs = await turn('otherMember', otherGeneral);
    await call('otherMember', feedbackPath(theirs.hash, theirs.answerId), 'POST', { rating: 'down', reason: 'wrong' });
    const mine = await turn('member', generalId);
    await call('member', feedbackPath(mine.hash, mine.answerId), 'POST', { rating: 'up' });

    const otherList = await call('otherAdmin', '/admin/feedback/?size=100');
    expect(otherList.body.summary.totals).toEqual({ up: 0, down: 1 });
    expect(otherList.body.items.map((item: { chatbot: { id: number } }) => item.chatbot.id)).toEqual([otherGeneral]);
    const ownList = await call('admin', '/admin/feedback/?size=100');
    expect(ownList.body.items.some((item: { chatbot: { id: number } }) => item.chatbot.id === otherGeneral)).toBe(false);
    // Another tenant's chatbot id as a filter finds nothing.
    expect((await call('admin', `/admin/feedback/?chatbot_id=${otherGeneral}`)).body.total_items).toBe(0);
  });
});

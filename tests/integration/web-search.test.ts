import { and, eq, inArray, or } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { creditLedger, llmModels, sessionMessages, sessions, tenants, usageRecords } from '../../src/server/db/schema';
import { estimateTokens } from '../../src/shared/domain/tokens';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { type FakeSearchUpstream, startFakeSearchUpstream } from '../fixtures/fakeSearchUpstream';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

const databases: ('pglite' | 'postgres')[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];
/** Credits per 10K tokens of search results, set on the General Assistant's model for these tests. */
const WEB_SEARCH_PRICE = 200;

describe.each(databases)('web search on %s', (database) => {
  let upstream: FakeLlmUpstream;
  let search: FakeSearchUpstream;
  let server: TestServer;
  let token: string;
  let general: number;

  const send = (body: Record<string, unknown>, target = server, accessToken = token) =>
    fetch(`${target.apiBase}/chatbots/${general}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': accessToken },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    search = await startFakeSearchUpstream();
    server = await startTestServer({ database, llm: { baseUrl: upstream.baseUrl }, config: { SEARCH_URL: search.url } });
    const api = apiClient(server);
    token = (await api.signIn(DEMO_MEMBER)).access_token;
    const list = await api.call('/chatbots/?include_default=true', { token });
    general = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
    await server.db.update(llmModels).set({ webSearchCostPer10k: WEB_SEARCH_PRICE }).where(eq(llmModels.name, 'balanced-pro'));
  });
  afterAll(async () => {
    await server?.close();
    await search?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    search.setFailStatus(null);
    search.setResults(null);
  });

  it('tells clients that web search is available', async () => {
    const tenant = await apiClient(server).call('/tenants/');
    expect(tenant.body.features).toEqual({ web_search: true });
  });

  it('searches the member’s message, gives the results to the model, cites them and meters the search as its own usage row', async () => {
    const response = await send({ text: 'latest pglite release', web_search: true });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    expect(search.queries.at(-1)).toBe('latest pglite release');

    const citations = frames.filter((frame) => frame.type === 'citation').map((frame) => frame.citation);
    expect(citations).toEqual([
      {
        kind: 'web',
        url: 'https://example.org/latest%20pglite%20release',
        title: 'About latest pglite release',
        snippet: 'Everything about latest pglite release, explained.',
      },
      { kind: 'web', url: 'https://example.com/news', title: 'Latest news', snippet: "Today's news mentions latest pglite release." },
    ]);
    const system = upstream.requests.at(-1)!.body.messages!.find((message) => message.role === 'system')!.content as string;
    expect(system).toContain('[1] About latest pglite release <https://example.org/latest%20pglite%20release>:');
    expect(system).toContain('[2] Latest news <https://example.com/news>:');

    const [answer] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id));
    expect(answer!.citations).toEqual(citations);

    // The answer's tokens and the search each have their usage row; the ledger moved by both, exactly.
    const usage = frames.find((frame) => frame.type === 'usage');
    const rows = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(rows).toHaveLength(2);
    const searchRow = rows.find((row) => row.webSearchCount === 1)!;
    const tokenRow = rows.find((row) => row.webSearchCount === 0)!;
    expect(searchRow).toMatchObject({ inputTokens: 0, outputTokens: 0, modelName: 'balanced-pro' });
    expect(searchRow.credits).toBeGreaterThan(0);
    const resultsText = system.slice(system.indexOf('Web search results'));
    expect(searchRow.credits).toBeCloseTo((estimateTokens(resultsText) / 10_000) * WEB_SEARCH_PRICE, 4);
    expect(tokenRow.credits + searchRow.credits).toBeCloseTo(usage.credits, 6);

    const [reservation] = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.kind, 'reservation'), eq(creditLedger.messageId, meta.chatbot_message_id)));
    const ledger = await server.db
      .select()
      .from(creditLedger)
      .where(or(eq(creditLedger.id, reservation!.id), eq(creditLedger.reservationId, reservation!.id)));
    expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBeCloseTo(-usage.credits, 6);
  });

  it('does not search, cite or meter a search when web search is off', async () => {
    const before = search.queries.length;
    const response = await send({ text: 'no search please' });
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    expect((await readFrames(response)).some((frame) => frame.type === 'citation')).toBe(false);
    expect(search.queries).toHaveLength(before);
    const rows = await server.db.select().from(usageRecords).where(eq(usageRecords.messageId, meta.chatbot_message_id));
    expect(rows.map((row) => row.webSearchCount)).toEqual([0]);
  });

  it('answers 424 with web_search_failed and saves nothing when the search service fails', async () => {
    const sessionsBefore = await server.db.select({ id: sessions.id }).from(sessions);
    search.setFailStatus(403);
    const response = await send({ text: 'will this fail', web_search: true });
    expect(response.status).toBe(424);
    expect(await response.json()).toMatchObject({ code: 'web_search_failed' });
    expect(await server.db.select({ id: sessions.id }).from(sessions)).toEqual(sessionsBefore);
  });

  it('cites only web pages among the results', async () => {
    search.setResults([
      { url: 'javascript:alert(1)', title: 'Script', content: 'not a page' },
      { url: 'https://example.net/page', title: 'A page', content: 'a real page' },
    ]);
    const response = await send({ text: 'pages only', web_search: true });
    expect(response.status).toBe(200);
    const citations = (await readFrames(response)).filter((frame) => frame.type === 'citation').map((frame) => frame.citation);
    expect(citations).toEqual([{ kind: 'web', url: 'https://example.net/page', title: 'A page', snippet: 'a real page' }]);
  });

  it('answers 424 when the search service cannot be reached', async () => {
    const unreachable = await startTestServer({ database, llm: { baseUrl: upstream.baseUrl }, config: { SEARCH_URL: 'http://127.0.0.1:9/' } });
    try {
      const memberToken = (await apiClient(unreachable).signIn(DEMO_MEMBER)).access_token;
      const response = await send({ text: 'anyone there', web_search: true }, unreachable, memberToken);
      expect(response.status).toBe(424);
      expect(await response.json()).toMatchObject({ code: 'web_search_failed' });
    } finally {
      await unreachable.close();
    }
  });

  describe('without a search service', () => {
    let bare: TestServer;
    let bareToken: string;
    beforeAll(async () => {
      bare = await startTestServer({ database, llm: { baseUrl: upstream.baseUrl } });
      bareToken = (await apiClient(bare).signIn(DEMO_MEMBER)).access_token;
    });
    afterAll(async () => {
      await bare?.close();
    });

    it('says web search is unavailable and refuses a send asking for it with 400 web_search_unavailable', async () => {
      expect((await apiClient(bare).call('/tenants/')).body.features).toEqual({ web_search: false });
      const response = await send({ text: 'search this', web_search: true }, bare, bareToken);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'web_search_unavailable' });
      const [tenant] = await bare.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
      expect(
        await bare.db
          .select()
          .from(sessions)
          .where(inArray(sessions.tenantId, [tenant!.id])),
      ).toEqual([]);
    });
  });
});

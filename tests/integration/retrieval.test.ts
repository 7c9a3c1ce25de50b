import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/server/config';
import { chatbotDocuments, chatbots, documentChunks, fileSections, files, sessionMessages, tenants } from '../../src/server/db/schema';
import { openPglite } from '../../src/server/db/client';
import { seedDemoTenant } from '../../src/server/db/seed';
import { indexFile, openAiCompatibleEmbedder, searchPassages } from '../../src/server/retrieval';
import { queryTerms } from '../../src/server/retrieval/chunking';
import { rowsOf } from '../../src/server/db/rows';
import { createSources } from '../../src/server/domains/chat/sources';
import { type FakeEmbeddingUpstream, startFakeEmbeddingUpstream } from '../fixtures/fakeEmbeddingUpstream';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { RETRIEVAL_QUESTIONS, answers, writeCorpus } from '../fixtures/retrievalCorpus';
import { DEMO_MEMBER, type TestServer, migratedPglite, startTestServer } from '../fixtures/testServer';
import { apiClient, readFrames } from './helpers/client';

const databases: ('pglite' | 'postgres')[] = ['pglite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])];

/** The text of the system message the fake model received last. */
const lastSystemPrompt = (upstream: FakeLlmUpstream) => {
  const system = upstream.requests.at(-1)?.body.messages?.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
};

describe.each(databases)('retrieval on %s', (database) => {
  let upstream: FakeLlmUpstream;
  let server: TestServer;
  let token: string;
  let memberId: number;
  let tenantId: number;
  let corpus: Map<string, number>;
  let chatbotIds: { general: number; quick: number };

  const send = (chatbotId: number, body: Record<string, unknown>) =>
    fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    upstream = await startFakeLlmUpstream();
    server = await startTestServer({ database, llm: { baseUrl: upstream.baseUrl } });
    const api = apiClient(server);
    const session = await api.signIn(DEMO_MEMBER);
    token = session.access_token;
    memberId = session.member.id;
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    tenantId = tenant!.id;
    corpus = await writeCorpus(server.db, tenantId);
    const list = await api.call('/chatbots/?include_default=true', { token });
    const byName = (name: string) => list.body.items.find((bot: { en_name: string }) => bot.en_name === name).id as number;
    chatbotIds = { general: byName('General Assistant'), quick: byName('Quick Helper') };
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it('indexes a parsed file into passages with their page or section, and indexing again replaces them', async () => {
    const fileId = corpus.get('Employee Handbook.docx')!;
    const first = await indexFile({ db: server.db }, fileId);
    const again = await indexFile({ db: server.db }, fileId);
    expect(first).toBe(10);
    expect(again).toBe(first);
    const rows = await server.db.select().from(documentChunks).where(eq(documentChunks.fileId, fileId));
    expect(rows).toHaveLength(10);
    expect(rows.find((row) => row.section === 'Remote work')?.text).toContain('three days a week');
  });

  it('cuts a long section into passages that all keep its page', async () => {
    const [file] = await server.db.insert(files).values({ tenantId, name: 'long.txt', mimeType: 'text/plain', sizeBytes: 1, storageKey: 'long' }).returning();
    const paragraph = (n: number) => `Paragraph ${n}. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6)}`;
    await server.db
      .insert(fileSections)
      .values({ tenantId, fileId: file!.id, ordinal: 0, page: 7, text: Array.from({ length: 8 }, (_, n) => paragraph(n)).join('\n\n') });
    expect(await indexFile({ db: server.db }, file!.id)).toBeGreaterThan(2);
    const rows = await server.db.select().from(documentChunks).where(eq(documentChunks.fileId, file!.id));
    expect(rows.every((row) => row.page === 7 && row.text.length <= 800)).toBe(true);
  });

  it('finds the passage answering Korean and English questions among the top five', async () => {
    const fileIds = [...corpus.values()];
    let found = 0;
    for (const question of RETRIEVAL_QUESTIONS) {
      const passages = await searchPassages({ db: server.db }, { tenantId, fileIds, question: question.question });
      if (passages.some((passage) => answers(question, passage))) found++;
    }
    expect(found / RETRIEVAL_QUESTIONS.length).toBeGreaterThanOrEqual(0.9);

    const [korean] = await searchPassages({ db: server.db }, { tenantId, fileIds, question: '연차휴가 며칠?' });
    expect(korean).toMatchObject({ name: '취업규칙.pdf', page: 3 });
    expect(korean!.snippet).toContain('15일');
  });

  it('strips Korean particles from passages as from questions, so full-text search matches 휴가를 to 휴가', async () => {
    const words = ['휴가를', '재택근무는', '회사에서는', '신청하려면', '연차휴가는', '회의', 'vacation'];
    const stems = rowsOf<{ stem: string }>(
      await server.db.execute(
        sql`select korean_stems(w) as stem from unnest(array[${sql.join(
          words.map((word) => sql`${word}`),
          sql`, `,
        )}]::text[]) with ordinality as u(w, i) order by i`,
      ),
    );
    expect(stems.map((row) => row.stem)).toEqual(words.map((word) => queryTerms(word)[0]));
  });

  it('searches only the given files of the tenant', async () => {
    const handbook = corpus.get('Employee Handbook.docx')!;
    const passages = await searchPassages({ db: server.db }, { tenantId, fileIds: [handbook], question: '연차휴가 parental leave' });
    expect(passages.every((passage) => passage.fileId === handbook)).toBe(true);
    expect(await searchPassages({ db: server.db }, { tenantId: tenantId + 1000, fileIds: [handbook], question: 'parental leave' })).toEqual([]);
  });

  it('gives the chatbot documents’ passages to the model, streams them as citations and keeps them with the answer', async () => {
    await server.db.insert(chatbotDocuments).values([
      { tenantId, chatbotId: chatbotIds.general, fileId: corpus.get('취업규칙.pdf')!, name: '취업규칙.pdf' },
      { tenantId, chatbotId: chatbotIds.general, fileId: corpus.get('Employee Handbook.docx')!, name: 'Employee Handbook.docx' },
    ]);
    const response = await send(chatbotIds.general, { text: '재택근무는 일주일에 몇 번 가능한가요?' });
    expect(response.status).toBe(200);
    const meta = JSON.parse(response.headers.get('x-chat-meta')!);
    const frames = await readFrames(response);
    const citations = frames.filter((frame) => frame.type === 'citation').map((frame) => frame.citation);
    expect(citations[0]).toMatchObject({ kind: 'document', file_id: corpus.get('취업규칙.pdf'), name: '취업규칙.pdf', page: 7 });
    expect(citations[0].snippet).toContain('재택근무는 주 2회');
    expect(citations.length).toBeLessThanOrEqual(5);

    const system = lastSystemPrompt(upstream);
    expect(system).toContain('[1] 취업규칙.pdf (page 7):');
    expect(system).toContain('재택근무는 주 2회까지 허용된다');

    const [answer] = await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, meta.chatbot_message_id));
    expect(answer!.citations).toEqual(citations);
    const history = await apiClient(server).call(`/sessions/${meta.session_hash_id}/history/`, { token });
    expect(history.body.items.find((item: { id: number }) => item.id === meta.chatbot_message_id).citations).toEqual(citations);
  });

  it('searches the files attached to the send and, later in the session, the files attached before', async () => {
    const [file] = await server.db
      .insert(files)
      .values({ tenantId, memberId, name: 'trip-notes.md', mimeType: 'text/markdown', sizeBytes: 1, storageKey: 'trip', parsedPercentage: 100 })
      .returning();
    // Parsed but not indexed by the parse job: the first search indexes it.
    await server.db.insert(fileSections).values([
      { tenantId, fileId: file!.id, ordinal: 0, heading: 'Flights', text: 'The flight to Jeju leaves Gimpo at 08:40 on gate 12.' },
      { tenantId, fileId: file!.id, ordinal: 1, heading: 'Hotel', text: 'The hotel check-in opens at 15:00; breakfast is served from 07:00.' },
    ]);
    const first = await send(chatbotIds.quick, { text: 'When does the hotel check-in open?', file_ids: [file!.id] });
    const meta = JSON.parse(first.headers.get('x-chat-meta')!);
    const firstCitations = (await readFrames(first)).filter((frame) => frame.type === 'citation').map((frame) => frame.citation);
    expect(firstCitations[0]).toMatchObject({ kind: 'document', file_id: file!.id, name: 'trip-notes.md', section: 'Hotel' });

    const second = await send(chatbotIds.quick, { text: 'Which gate does the flight leave from?', session_hash_id: meta.session_hash_id });
    const secondCitations = (await readFrames(second)).filter((frame) => frame.type === 'citation').map((frame) => frame.citation);
    expect(secondCitations[0]).toMatchObject({ file_id: file!.id, section: 'Flights' });
    expect(lastSystemPrompt(upstream)).toContain('gate 12');
  });

  it('sends no passages and no citations when nothing matches or there is nothing to search', async () => {
    const unrelated = await send(chatbotIds.general, { text: 'xylophone zeppelin' });
    expect((await readFrames(unrelated)).some((frame) => frame.type === 'citation')).toBe(false);
    const plain = await send(chatbotIds.quick, { text: 'Hello there' });
    expect((await readFrames(plain)).some((frame) => frame.type === 'citation')).toBe(false);
    expect(lastSystemPrompt(upstream)).not.toContain('Passages from documents');
  });

  describe('with an embedding model', () => {
    let embeddings: FakeEmbeddingUpstream;
    let embedded: TestServer;

    beforeAll(async () => {
      embeddings = await startFakeEmbeddingUpstream();
      embedded = await startTestServer({ database, config: { EMBEDDING_BASE_URL: embeddings.baseUrl, EMBEDDING_MODEL: 'fake-embedding' } });
    });
    afterAll(async () => {
      await embedded?.close();
      await embeddings?.close();
    });

    it('stores a vector with each passage and ranks with it, and still finds passages when the embedding service fails', async () => {
      const [tenant] = await embedded.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
      const withEmbedder = { db: embedded.db, embedder: openAiCompatibleEmbedder({ baseUrl: embeddings.baseUrl, model: 'fake-embedding' }) };
      const ids = await writeCorpus(embedded.db, tenant!.id);
      const handbook = ids.get('Employee Handbook.docx')!;
      await indexFile(withEmbedder, handbook);
      const rows = await embedded.db
        .select()
        .from(documentChunks)
        .where(and(eq(documentChunks.fileId, handbook), eq(documentChunks.embeddingModel, 'fake-embedding')));
      expect(rows).toHaveLength(10);
      expect(rows[0]!.embedding).toHaveLength(256);
      expect(embeddings.requests.length).toBeGreaterThan(0);

      const [best] = await searchPassages(withEmbedder, { tenantId: tenant!.id, fileIds: [handbook], question: 'How long is parental leave?' });
      expect(best).toMatchObject({ section: 'Parental leave' });

      embeddings.setFailStatus(500);
      const [fallback] = await searchPassages(withEmbedder, { tenantId: tenant!.id, fileIds: [handbook], question: 'How long is parental leave?' });
      expect(fallback).toMatchObject({ section: 'Parental leave' });
      embeddings.setFailStatus(null);
    });
  });
});

describe('retrieval cost of a send', () => {
  it('runs no retrieval query for a chatbot without documents and a session without files, beyond one cached look at the documents', async () => {
    const statements: string[] = [];
    const handle = await openPglite(undefined, (statement) => statements.push(statement), await migratedPglite());
    try {
      await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'Demo' });
      const [tenant] = await handle.db.select().from(tenants);
      const [chatbot] = await handle.db.select().from(chatbots);
      const sources = createSources({ db: handle.db, config: testConfig() });
      const send = {
        tenantId: tenant!.id,
        chatbotId: chatbot!.id,
        existing: null,
        fileIds: [],
        wholeFileIds: [],
        text: 'How long is parental leave?',
        webSearch: false,
      };
      const retrieval = () => statements.filter((statement) => /document_chunks|chatbot_documents|file_sections|session_message_files/.test(statement));

      statements.length = 0;
      expect(await sources.gather(send)).toEqual({ context: '', citations: [], webSearchTokens: null });
      expect(retrieval()).toHaveLength(1);
      statements.length = 0;
      await sources.gather(send);
      expect(retrieval()).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});

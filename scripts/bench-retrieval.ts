/**
 * `npm run bench:retrieval`: recall@5 and query latency of retrieval on the Korean + English
 * fixture corpus (tests/fixtures/retrievalCorpus.ts), once with the offline default (full-text
 * search + trigram similarity) and once with embeddings from a fake OpenAI-compatible embedding
 * upstream on loopback (deterministic hashed character n-grams, not a real model). PGlite by
 * default; BENCH_RETRIEVAL_DB=postgres uses BENCH_DATABASE_URL or TEST_DATABASE_URL.
 * Each question searches all the corpus's files, as a chatbot with three documents would.
 */
import { performance } from 'node:perf_hooks';
import { tenants } from '../src/server/db/schema';
import { type RetrievalDeps, indexFile, searchPassages } from '../src/server/retrieval';
import { openAiCompatibleEmbedder } from '../src/server/retrieval/embeddings';
import { startFakeEmbeddingUpstream } from '../tests/fixtures/fakeEmbeddingUpstream';
import { RETRIEVAL_QUESTIONS, answers, writeCorpus } from '../tests/fixtures/retrievalCorpus';
import { envInt, ms, openBenchDatabase, percentile } from './benchSupport';

const KIND = process.env.BENCH_RETRIEVAL_DB === 'postgres' ? 'postgres' : 'pglite';
const PORT = envInt('BENCH_PORT', 3521);
const K = 5;
/** Pages of filler added for the latency-at-size run (three passages a page). */
const LARGE_PAGES = envInt('BENCH_RETRIEVAL_PAGES', 300);

/**
 * A long document about other things that mentions the corpus's topics now and then (one topic
 * word a paragraph), as a long manual would: every question's words occur in some of its passages.
 */
function fillerSections(pages: number) {
  const topics = [
    '휴가',
    '근무',
    '출장',
    '급여',
    '보안',
    '신청',
    'vacation',
    'remote',
    'expenses',
    'laptop',
    'notice',
    'policy',
    'employee',
    'manager',
    'leave',
  ];
  const filler = [
    'the',
    'system',
    'report',
    'quarterly',
    'revenue',
    'team',
    'customer',
    'project',
    'schedule',
    '회의',
    '보고서',
    '고객',
    '일정',
    '매출',
    '프로젝트',
    'design',
    'review',
    'market',
    'plan',
    'update',
  ];
  return Array.from({ length: pages }, (_, page) => ({
    page: page + 1,
    text: Array.from({ length: 3 }, (_, paragraph) => {
      const words = Array.from({ length: 60 }, (_, n) => filler[(page * 13 + paragraph * 7 + n * 3) % filler.length]);
      words[(page + paragraph * 17) % 60] = topics[(page * 3 + paragraph) % topics.length]!;
      return words.join(' ');
    }).join('\n\n'),
  }));
}

async function measure(deps: RetrievalDeps, tenantId: number, fileIds: number[], label: string) {
  const timings: number[] = [];
  const misses: string[] = [];
  let hits = 0;
  let firsts = 0;
  for (const question of RETRIEVAL_QUESTIONS) {
    const started = performance.now();
    const passages = await searchPassages(deps, { tenantId, fileIds, question: question.question, limit: K });
    timings.push(performance.now() - started);
    if (passages[0] && answers(question, passages[0])) firsts++;
    if (passages.some((passage) => answers(question, passage))) hits++;
    else misses.push(question.question);
  }
  timings.sort((a, b) => a - b);
  const recall = hits / RETRIEVAL_QUESTIONS.length;
  console.log(
    `${label.padEnd(36)} recall@${K} ${recall.toFixed(2)} (${hits}/${RETRIEVAL_QUESTIONS.length})  recall@1 ${(firsts / RETRIEVAL_QUESTIONS.length).toFixed(2)}  latency p50 ${ms(percentile(timings, 50))}  p95 ${ms(percentile(timings, 95))}`,
  );
  for (const miss of misses) console.log(`  missed: ${miss}`);
  return recall;
}

const handle = await openBenchDatabase(KIND);
const embeddings = await startFakeEmbeddingUpstream({ port: PORT });
try {
  const { db } = handle;
  const [tenant] = await db.insert(tenants).values({ subdomain: 'bench', name: 'Bench' }).returning({ id: tenants.id });
  if (!tenant) throw new Error('tenant insert returned no row');
  const fileIds = [...(await writeCorpus(db, tenant.id)).values()];
  console.log(`retrieval on ${KIND}: ${RETRIEVAL_QUESTIONS.length} questions over ${fileIds.length} documents`);

  let started = performance.now();
  const offline = { db };
  for (const fileId of fileIds) await indexFile(offline, fileId);
  console.log(`indexing (offline)                   ${ms(performance.now() - started)}`);
  // The first query pays for the trigram and text-search dictionaries loading: warm them up.
  await searchPassages(offline, { tenantId: tenant.id, fileIds, question: 'warm up', limit: K });
  await measure(offline, tenant.id, fileIds, 'offline (text rankings)');

  const embedded = { db, embedder: openAiCompatibleEmbedder({ baseUrl: embeddings.baseUrl, model: 'fake-hashed-ngrams' }) };
  started = performance.now();
  for (const fileId of fileIds) await indexFile(embedded, fileId);
  console.log(`indexing (with embeddings)           ${ms(performance.now() - started)}`);
  await measure(embedded, tenant.id, fileIds, 'with fake embeddings (four rankings)');

  const large = await writeCorpus(db, tenant.id, [{ name: 'large.pdf', sections: fillerSections(LARGE_PAGES) }]);
  const largeId = large.get('large.pdf')!;
  started = performance.now();
  const passages = await indexFile(offline, largeId);
  console.log(`indexing ${LARGE_PAGES} more pages (${passages} passages) ${ms(performance.now() - started)}`);
  await measure(offline, tenant.id, [...fileIds, largeId], `offline, with the ${passages}-passage file`);
} finally {
  await embeddings.close();
  await handle.close();
}

/**
 * `npm run bench:retrieval`: recall and query latency of retrieval at scale: one tenant whose
 * chatbot has 40 documents of synthetic Korean and English passages (100,000 by default,
 * BENCH_RETRIEVAL_PASSAGES) that use the fixture questions' topic words now and then, with the
 * three fixture documents (tests/fixtures/retrievalCorpus.ts) among them. Every question searches
 * all 43 documents. Printed: recall@5, recall@1, p50 and p95 of one `searchPassages` call, offline
 * (text rankings) and with embeddings from a fake OpenAI-compatible upstream on loopback
 * (deterministic hashed character n-grams, not a real model), BENCH_RETRIEVAL_RUNS times (3).
 *
 * PGlite by default; BENCH_RETRIEVAL_DB=postgres uses BENCH_DATABASE_URL or TEST_DATABASE_URL.
 * The built data is kept for the next run (a PGlite data directory under the system's temporary
 * directory, a PostgreSQL database `bench_retrieval_<passages>_v<version>`); BENCH_RETRIEVAL_REBUILD=1
 * builds it again. Synthetic passages are inserted straight into document_chunks, with their fake
 * embeddings, as indexFile would store them; the fixture documents go through indexFile.
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type DatabaseHandle, openPglite, openPostgres } from '../src/server/db/client';
import { rowsOf } from '../src/server/db/rows';
import { documentChunks, files, tenants } from '../src/server/db/schema';
import { type RetrievalDeps, indexFile, searchPassages } from '../src/server/retrieval';
import { openAiCompatibleEmbedder } from '../src/server/retrieval/embeddings';
import { hashedNgramVector, startFakeEmbeddingUpstream } from '../tests/fixtures/fakeEmbeddingUpstream';
import { RETRIEVAL_QUESTIONS, answers, writeCorpus } from '../tests/fixtures/retrievalCorpus';
import { benchPostgresUrl, envInt, ms, percentile } from './benchSupport';

const KIND = process.env.BENCH_RETRIEVAL_DB === 'postgres' ? 'postgres' : 'pglite';
const PORT = envInt('BENCH_PORT', 0);
const PASSAGES = envInt('BENCH_RETRIEVAL_PASSAGES', 100_000);
const RUNS = envInt('BENCH_RETRIEVAL_RUNS', 3);
const SYNTHETIC_FILES = 40;
const K = 5;
const MODEL = 'fake-hashed-ngrams';
/** Bump when the synthetic data or what is stored with it changes: kept data of another version is not reused. */
const DATA_VERSION = 2;
const BUILT = 'Bench retrieval (complete)';

/** A small seeded generator (mulberry32): the same corpus on every run and database. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KOREAN = {
  nouns: (
    '회의 보고서 고객 일정 매출 프로젝트 계약 예산 부서 시스템 서비스 품질 교육 평가 목표 제품 시장 협력사 문서 승인 절차 기준 관리자 담당자 자료 결과 계획 ' +
    '검토 개선 운영 조직 성과 안전 점검 구매 재고 배송 요청 회계 감사 설비 공정 장비 인력 채용 고객사 견적 발주 납기 규격 표준 지침 양식 서류 결재 보안점검 위원회'
  ).split(' '),
  topics: '휴가 급여 출장 재택근무 비밀번호 퇴직 요금제 보안 교육 근무시간 파일 신청'.split(' '),
  adverbs: '매주 분기마다 필요한 경우 원칙적으로 사전에 지체 없이 담당 부서와 협의하여 연 1회 이상 월말까지 즉시 별도로 정하는 바에 따라'.split(' '),
  verbs:
    '검토한다 진행한다 관리한다 보고한다 확인하여야 한다 작성하여 제출한다 공유한다 개선한다 승인받아야 한다 기록한다 점검한다 유지한다 통보한다 지원한다'.split(
      ' ',
    ),
};
const ENGLISH = {
  nouns: (
    'report customer schedule revenue project contract budget department system service quality training review target product market partner document ' +
    'approval procedure standard manager data result plan improvement operation team performance safety inspection purchase inventory delivery request ' +
    'invoice audit meeting deadline supplier warehouse forecast campaign release roadmap incident ticket'
  ).split(' '),
  topics: 'vacation leave expenses laptop password budget notice remote training salary travel policy'.split(' '),
  adverbs: [
    'every week',
    'before the deadline',
    'where needed',
    'in the first quarter',
    'with the finance team',
    'as agreed',
    'within 14 days',
    'at the end of the month',
    'on request',
  ],
  verbs: 'reviews updates approves records shares prepares checks reports submits tracks schedules confirms plans'.split(' '),
};

/** Korean particles after a final consonant or a vowel. */
const particle = (word: string, withFinal: string, withoutFinal: string) => {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  return word + (code >= 0 && code < 11172 && code % 28 !== 0 ? withFinal : withoutFinal);
};

/** Passages of ordinary business text; about one noun in 24 names one of the fixture documents' topics (a Korean passage has about 0.75 of them). */
function syntheticPassage(next: () => number, korean: boolean): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const words = korean ? KOREAN : ENGLISH;
  const noun = () => (next() < 1 / 24 ? pick(words.topics) : pick(words.nouns));
  const sentences = Array.from({ length: 6 + Math.floor(next() * 7) }, () => {
    if (korean) return `${pick(words.adverbs)} ${particle(noun(), '은', '는')} ${particle(noun(), '을', '를')} ${pick(words.verbs)}.`;
    const sentence =
      next() < 0.5
        ? `The ${noun()} team ${pick(words.verbs)} the ${noun()} ${pick(words.adverbs)}.`
        : `Each ${noun()} ${pick(words.verbs)} its ${noun()} and the ${noun()}.`;
    return next() < 0.2 ? sentence.replace('.', ` (section ${1 + Math.floor(next() * 12)}.${1 + Math.floor(next() * 9)}).`) : sentence;
  });
  return sentences.join(' ');
}

const unit = (vector: number[]) => {
  const norm = Math.hypot(...vector) || 1;
  // Four decimals: the stored real[] stays close to the model's while the insert sends less text.
  return vector.map((value) => Math.round((value / norm) * 1e4) / 1e4);
};

/** The synthetic documents, inserted as indexFile stores passages (with the fake model's embeddings). */
async function writeSynthetic(handle: DatabaseHandle, tenantId: number) {
  const { db } = handle;
  const next = random(25);
  const perFile = Math.ceil(PASSAGES / SYNTHETIC_FILES);
  for (let file = 0; file < SYNTHETIC_FILES; file++) {
    const korean = file % 2 === 0;
    const name = korean ? `사내 규정집 ${file + 1}.pdf` : `Operations Manual ${file + 1}.docx`;
    const [row] = await db
      .insert(files)
      .values({ tenantId, name, mimeType: 'text/plain', sizeBytes: 1, storageKey: `bench/${file}`, parsedPercentage: 100 })
      .returning({ id: files.id });
    const count = Math.min(perFile, PASSAGES - file * perFile);
    for (let start = 0; start < count; start += 500) {
      const rows = Array.from({ length: Math.min(500, count - start) }, (_, offset) => {
        const ordinal = start + offset;
        const section = korean ? null : `Chapter ${1 + Math.floor(ordinal / 50)}`;
        const text = syntheticPassage(next, korean);
        return {
          tenantId,
          fileId: row!.id,
          ordinal,
          page: korean ? 1 + Math.floor(ordinal / 3) : null,
          section,
          text,
          embedding: unit(hashedNgramVector([section, text].filter(Boolean).join('\n'))),
          embeddingModel: MODEL,
        };
      });
      await db.insert(documentChunks).values(rows);
    }
  }
}

/** The kept database of this size and version, or a new one. */
async function openKept(): Promise<DatabaseHandle> {
  const name = `bench_retrieval_${PASSAGES}_v${DATA_VERSION}`;
  const rebuild = process.env.BENCH_RETRIEVAL_REBUILD === '1';
  if (KIND === 'pglite') {
    const dir = join(tmpdir(), name);
    if (rebuild && existsSync(dir)) rmSync(dir, { recursive: true });
    return openPglite(dir);
  }
  const adminUrl = benchPostgresUrl();
  if (!adminUrl) throw new Error('PostgreSQL benchmarks need BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  if (rebuild) await admin.unsafe(`drop database if exists "${name}" with (force)`);
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  if (!exists) await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return openPostgres(url.toString());
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
  const n = RETRIEVAL_QUESTIONS.length;
  console.log(
    `${label.padEnd(32)} recall@${K} ${(hits / n).toFixed(2)} (${hits}/${n})  recall@1 ${(firsts / n).toFixed(2)}  p50 ${ms(percentile(timings, 50))}  p95 ${ms(percentile(timings, 95))}  max ${ms(timings.at(-1)!)}`,
  );
  for (const miss of misses) console.log(`  missed: ${miss}`);
}

const handle = await openKept();
const embeddings = await startFakeEmbeddingUpstream({ port: PORT });
try {
  const { db } = handle;
  const embedder = openAiCompatibleEmbedder({ baseUrl: embeddings.baseUrl, model: MODEL });
  let [tenant] = await db.select().from(tenants).where(eq(tenants.subdomain, 'bench-retrieval'));
  if (tenant && tenant.name !== BUILT) {
    await db.delete(tenants).where(eq(tenants.id, tenant.id));
    tenant = undefined;
  }
  if (!tenant) {
    const started = performance.now();
    [tenant] = await db.insert(tenants).values({ subdomain: 'bench-retrieval', name: 'Bench retrieval (building)' }).returning();
    await writeSynthetic(handle, tenant!.id);
    const synthetic = performance.now();
    for (const fileId of (await writeCorpus(db, tenant!.id)).values()) await indexFile({ db, embedder }, fileId);
    // PostgreSQL's autovacuum would analyze the new rows within a minute; PGlite has none, as in the app.
    if (KIND === 'postgres') await db.execute(sql`analyze document_chunks`);
    await db.update(tenants).set({ name: BUILT }).where(eq(tenants.id, tenant!.id));
    console.log(`built ${PASSAGES} synthetic passages in ${ms(synthetic - started)}, the fixture documents in ${ms(performance.now() - synthetic)}`);
  } else console.log(`reusing the kept data (BENCH_RETRIEVAL_REBUILD=1 builds it again)`);
  const tenantId = tenant!.id;
  const fileIds = (await db.select({ id: files.id }).from(files).where(eq(files.tenantId, tenantId))).map((row) => row.id);
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(documentChunks)
    .where(eq(documentChunks.tenantId, tenantId));
  const vector = await db.execute(sql`select 1 from pg_available_extensions where name = 'vector'`);
  // The server does not use pgvector (docs/decisions/0087-retrieval-at-scale.md): said here so a run on a database that has it shows it.
  console.log(
    `retrieval on ${KIND}: ${RETRIEVAL_QUESTIONS.length} questions over ${fileIds.length} documents, ${count} passages; vector extension available: ${rowsOf(vector).length > 0 ? 'yes (not used)' : 'no'}`,
  );

  const offline = { db };
  const embedded = { db, embedder };
  // The first queries pay for loading the text-search dictionaries, trigram functions and pages.
  await searchPassages(offline, { tenantId, fileIds, question: 'warm up 준비', limit: K });
  await searchPassages(embedded, { tenantId, fileIds, question: 'warm up 준비', limit: K });
  for (let run = 1; run <= RUNS; run++) {
    await measure(offline, tenantId, fileIds, `run ${run} offline (text rankings)`);
    await measure(embedded, tenantId, fileIds, `run ${run} with fake embeddings`);
  }
} finally {
  await embeddings.close();
  await handle.close();
}

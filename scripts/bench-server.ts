/**
 * `npm run bench:server`: concurrent chat streams against the real server (PGlite, and PostgreSQL
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL is set) and, in the same run, against the floor: a
 * bare Fastify proxy doing only the streaming (same AI SDK provider, no auth, database or metering)
 * to the same fake OpenAI-compatible upstream. The upstream, each target and the load generator
 * run in their own processes. Prints the latency a target adds to the first token (client time to
 * first token minus the upstream's own), streams per second, the ratios to the floor, the CPU time
 * each target (and its PostgreSQL backends) spends per stream, which varies far less than latency
 * on a loaded machine, and a profile of one chat turn (statements, transactions, writes per token).
 * Figures only; nothing is asserted.
 *
 * BENCH_STREAMS (default 1000), BENCH_CONCURRENCY (200), BENCH_MEMBERS (50), BENCH_TOKEN_DELAY_MS
 * (20), BENCH_TOKENS (20), BENCH_POOL_SIZE (PostgreSQL pool, default as the server's),
 * BENCH_CHATBOT (`paid`, default, or `free` for the unlimited model), BENCH_PORT (first of three
 * ports, default 3430), BENCH_TARGETS (comma list of floor,pglite,postgres; a database target may
 * name its pool size and turn the tenant/member cache off, e.g. postgres:20 or postgres:10:nocache,
 * to compare them in one run), BENCH_CPU_PROFILE_DIR
 * (write a V8 CPU profile of each target there).
 */
import type { ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { streamText } from 'ai';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../src/server/app';
import { testConfig } from '../src/server/config';
import type { Database } from '../src/server/db/client';
import { seedDemoTenant } from '../src/server/db/seed';
import { OPENAI_COMPATIBLE_PROVIDER, createLlmRegistry } from '../src/server/llm/registry';
import { API_PREFIX } from '../src/shared/domain/http';
import {
  type StreamResult,
  UPSTREAM_MODEL,
  addBenchMembers,
  ask,
  benchPostgresUrl,
  envInt,
  forkRole,
  loadRole,
  ms,
  nextMessage,
  openBenchDatabase,
  percentile,
  processCpuMicros,
  serveRequests,
  signInMembers,
  upstreamRole,
} from './benchSupport';

const SCRIPT = fileURLToPath(import.meta.url);
const STREAMS = envInt('BENCH_STREAMS', 1000);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 200);
const MEMBERS = envInt('BENCH_MEMBERS', 50);
const TOKEN_DELAY_MS = envInt('BENCH_TOKEN_DELAY_MS', 20);
const TOKENS = envInt('BENCH_TOKENS', 20);
const POOL_SIZE = process.env.BENCH_POOL_SIZE ? envInt('BENCH_POOL_SIZE', 20) : undefined;
const PAID = (process.env.BENCH_CHATBOT ?? 'paid') !== 'free';
const PORT = envInt('BENCH_PORT', 3430);

type TargetKind = 'floor' | 'pglite' | 'postgres';

/** A BENCH_TARGETS entry: `kind[:poolSize][:nocache]`. */
function parseTarget(spec: string): { kind: TargetKind; poolSize?: number; authCache: boolean } {
  const [kind, ...options] = spec.split(':') as [TargetKind, ...string[]];
  const pool = options.find((option) => /^\d+$/.test(option));
  return { kind, poolSize: pool ? Number(pool) : POOL_SIZE, authCache: !options.includes('nocache') };
}

interface TurnProfile {
  statements: number;
  selects: number;
  lockingSelects: number;
  writes: number;
  transactions: number;
}

// ---------------------------------------------------------------- target processes

/** CPU time this process has used, in microseconds. */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * CPU time used by the PostgreSQL backends of this database (the pool's connections), read from
 * /proc when the server runs on this Linux machine; null elsewhere.
 */
async function backendCpuMicros(db: Database): Promise<number | null> {
  const result = await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`).catch(() => null);
  if (!result) return null;
  const pids = (Array.isArray(result) ? result : (result as unknown as { rows: { pid: number }[] }).rows) as { pid: number }[];
  let micros = 0;
  for (const { pid } of pids) {
    const used = processCpuMicros(pid);
    if (used === null) return null;
    micros += used;
  }
  return micros;
}

/** Exits right after the answer to `close` has gone out. */
function exitSoon(): object {
  setTimeout(() => process.exit(0), 100);
  return {};
}

function writeFrame(response: ServerResponse, frame: unknown): void {
  if (!response.destroyed && !response.writableEnded) response.write(`data: ${JSON.stringify(frame)}\n\n`);
}

/** Only the streaming: the same provider and frames as the real server, nothing else. */
async function floorRole(baseUrl: string): Promise<void> {
  const llm = createLlmRegistry({ config: testConfig({ DEMO_TOKEN_DELAY_MS: 0, LLM_BASE_URL: baseUrl, LLM_API_KEY: 'bench-key' }) });
  const app = Fastify();
  app.post('/chat', async (request, reply) => {
    const { text } = request.body as { text: string };
    const response = reply.raw;
    const upstream = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) upstream.abort();
    });
    reply.hijack();
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform' });
    response.flushHeaders();
    const result = streamText({
      model: llm.languageModel(OPENAI_COMPATIBLE_PROVIDER, UPSTREAM_MODEL),
      system: 'You are a helpful, concise assistant.',
      messages: [{ role: 'user', content: text }],
      abortSignal: upstream.signal,
      maxRetries: 0,
      onError: () => {},
    });
    let usage: { inputTokens?: number; outputTokens?: number } | undefined;
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') writeFrame(response, { type: 'text', delta: part.text });
      else if (part.type === 'finish') usage = part.totalUsage;
    }
    writeFrame(response, { type: 'usage', input_tokens: usage?.inputTokens ?? 0, output_tokens: usage?.outputTokens ?? 0, credits: 0 });
    writeFrame(response, { type: 'end', finish_reason: 'stop' });
    response.end();
  });
  await app.listen({ port: PORT + 1, host: '127.0.0.1' });
  serveRequests({ cpu: () => ({ cpu: cpuMicros() }), close: async () => (await app.close(), exitSoon()) });
  process.send!({ type: 'ready', chatUrl: `http://127.0.0.1:${PORT + 1}/chat`, tokens: [null] });
}

async function serverRole(spec: string, baseUrl: string): Promise<void> {
  const { kind, poolSize, authCache } = parseTarget(spec);
  if (kind === 'floor') throw new Error('the floor is not a database target');
  const profile: TurnProfile = { statements: 0, selects: 0, lockingSelects: 0, writes: 0, transactions: 0 };
  const handle = await openBenchDatabase(kind, {
    poolSize,
    observe: (query) => {
      profile.statements++;
      if (/^\s*select/i.test(query)) {
        profile.selects++;
        if (/\bfor (update|no key update|share)\b/i.test(query)) profile.lockingSelects++;
      } else if (/^\s*(insert|update|delete)/i.test(query) || (/^\s*with\b/i.test(query) && /\b(insert|update|delete)\b/i.test(query))) profile.writes++;
    },
  });
  const { db } = handle;
  const transaction = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<Database['transaction']>) => {
    profile.transactions++;
    return transaction(...args);
  }) as Database['transaction'];

  const config = testConfig({
    LLM_BASE_URL: baseUrl,
    LLM_API_KEY: 'bench-key',
    LLM_MODEL: UPSTREAM_MODEL,
    SIGN_IN_RATE_LIMIT: 1_000_000,
    ...(authCache ? {} : { AUTH_CACHE_TTL_SECONDS: 0 }),
  });
  await seedDemoTenant(db, { subdomain: config.DEFAULT_TENANT, tenantName: 'Bench workspace', openAiCompatibleModel: UPSTREAM_MODEL });
  const emails = await addBenchMembers(db, MEMBERS);
  const app = await buildApp({ db, config, logger: { level: config.LOG_LEVEL } });
  await app.listen({ port: PORT + 2, host: '127.0.0.1' });
  const apiBase = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`;
  const { chatUrl, tokens } = await signInMembers(apiBase, emails, PAID);

  serveRequests({
    'profile-reset': () => {
      for (const key of Object.keys(profile) as (keyof TurnProfile)[]) profile[key] = 0;
      return {};
    },
    'profile-read': () => ({ profile: { ...profile } }),
    cpu: async () => ({ cpu: cpuMicros(), databaseCpu: kind === 'postgres' ? await backendCpuMicros(db) : null }),
    close: async () => {
      await app.close();
      await handle.close();
      return exitSoon();
    },
  });
  process.send!({ type: 'ready', chatUrl, tokens });
}

// ---------------------------------------------------------------- orchestration

interface Figures {
  /** The BENCH_TARGETS entry. */
  kind: string;
  ok: number;
  failed: number;
  addedP50: number;
  addedP99: number;
  totalP50: number;
  perSecond: number;
  /** CPU milliseconds per stream of the target process during the run (and of its PostgreSQL backends). */
  cpuPerStream: number;
  databaseCpuPerStream: number | null;
  profile?: TurnProfile;
}

interface CpuReading {
  cpu: number;
  databaseCpu?: number | null;
}

async function measure(kind: string, upstream: ChildProcess, load: ChildProcess, baseUrl: string): Promise<Figures> {
  const target = forkRole(SCRIPT, 'target', [kind, baseUrl], { cpuProfileDir: process.env.BENCH_CPU_PROFILE_DIR });
  const { chatUrl, tokens } = await nextMessage<{ chatUrl: string; tokens: (string | null)[] }>(target, 'ready');
  const run = (streams: number, concurrency: number, prefix: string) =>
    ask<{ results: StreamResult[]; seconds: number }>(load, { type: 'run', chatUrl, tokens, streams, concurrency, prefix });
  try {
    await run(Math.min(100, STREAMS), Math.min(50, CONCURRENCY), `${kind}-warm`);
    let profile: TurnProfile | undefined;
    if (parseTarget(kind).kind !== 'floor') {
      await ask(target, { type: 'profile-reset' });
      await run(1, 1, `${kind}-profile`);
      profile = (await ask<{ profile: TurnProfile }>(target, { type: 'profile-read' })).profile;
    }
    await ask(upstream, { type: 'ttft' });
    const cpuBefore = await ask<CpuReading>(target, { type: 'cpu' });
    const { results, seconds } = await run(STREAMS, CONCURRENCY, `${kind}-run`);
    const cpuAfter = await ask<CpuReading>(target, { type: 'cpu' });
    const { byText } = await ask<{ byText: Record<string, number> }>(upstream, { type: 'ttft' });
    const ok = results.filter((result) => result.ok);
    const added = ok
      .map((result) => result.clientTtft - (byText[result.text] ?? Number.NaN))
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const totals = ok.map((result) => result.total).sort((a, b) => a - b);
    return {
      kind,
      ok: ok.length,
      failed: results.length - ok.length,
      addedP50: percentile(added, 50),
      addedP99: percentile(added, 99),
      totalP50: percentile(totals, 50),
      perSecond: ok.length / seconds,
      cpuPerStream: (cpuAfter.cpu - cpuBefore.cpu) / 1000 / results.length,
      databaseCpuPerStream:
        cpuAfter.databaseCpu != null && cpuBefore.databaseCpu != null ? (cpuAfter.databaseCpu - cpuBefore.databaseCpu) / 1000 / results.length : null,
      profile,
    };
  } finally {
    // The target exits by itself after closing, so that a CPU profile (BENCH_CPU_PROFILE_DIR) gets written.
    const exited = new Promise((resolve) => target.once('exit', resolve));
    await ask(target, { type: 'close' }).catch(() => {});
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    target.kill();
  }
}

function report(all: Figures[]): void {
  const floor = all.find((figures) => figures.kind === 'floor');
  console.log(
    `\nbench:server  ${STREAMS} streams at concurrency ${CONCURRENCY}, ${MEMBERS} members, ${TOKENS} tokens at ${TOKEN_DELAY_MS} ms/token, ${PAID ? 'paid' : 'unlimited'} model`,
  );
  console.log('  target              streams/s   added TTFT p50   added TTFT p99   whole stream p50   failed   vs floor (p50 ×, p99 ×, throughput share)');
  for (const figures of all) {
    const ratios =
      floor && figures !== floor
        ? `${(figures.addedP50 / floor.addedP50).toFixed(1)}×  ${(figures.addedP99 / floor.addedP99).toFixed(1)}×  ${((figures.perSecond / floor.perSecond) * 100).toFixed(0)} %`
        : '';
    console.log(
      `  ${figures.kind.padEnd(18)}  ${figures.perSecond.toFixed(1).padStart(9)}   ${ms(figures.addedP50).padStart(14)}   ${ms(figures.addedP99).padStart(14)}   ${ms(figures.totalP50).padStart(16)}   ${String(figures.failed).padStart(6)}   ${ratios}`,
    );
  }
  for (const figures of all) {
    const database = figures.databaseCpuPerStream === null ? '' : `, its PostgreSQL backends ${figures.databaseCpuPerStream.toFixed(1)} ms`;
    console.log(`  CPU per stream on ${figures.kind}: server process ${figures.cpuPerStream.toFixed(1)} ms${database}`);
  }
  for (const figures of all) {
    const p = figures.profile;
    if (!p) continue;
    console.log(
      `  one turn on ${figures.kind}: ${p.statements} statements (${p.selects} selects, ${p.lockingSelects} locking, ${p.writes} writes), ${p.transactions} transactions, ${(p.writes / TOKENS).toFixed(2)} writes per token`,
    );
  }
}

async function main(): Promise<void> {
  let targets = (process.env.BENCH_TARGETS ?? 'floor,pglite,postgres').split(',').map((name) => name.trim());
  if (targets.some((spec) => parseTarget(spec).kind === 'postgres') && !benchPostgresUrl()) {
    console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
    targets = targets.filter((spec) => parseTarget(spec).kind !== 'postgres');
  }
  const upstream = forkRole(SCRIPT, 'upstream');
  const load = forkRole(SCRIPT, 'load');
  try {
    const [{ baseUrl }] = await Promise.all([nextMessage<{ baseUrl: string }>(upstream, 'ready'), nextMessage(load, 'ready')]);
    const all: Figures[] = [];
    for (const kind of targets) {
      const figures = await measure(kind, upstream, load, baseUrl);
      all.push(figures);
      console.log(`  ${kind}: ${figures.perSecond.toFixed(1)} streams/s, added TTFT p50 ${ms(figures.addedP50)} p99 ${ms(figures.addedP99)}`);
    }
    report(all);
  } finally {
    upstream.kill();
    load.kill();
  }
}

const [role, ...args] = process.argv.slice(2);
const started =
  role === 'upstream'
    ? upstreamRole({ port: PORT, tokens: TOKENS, delayMs: TOKEN_DELAY_MS })
    : role === 'load'
      ? Promise.resolve(loadRole())
      : role === 'target'
        ? args[0] === 'floor'
          ? floorRole(args[1]!)
          : serverRole(args[0]!, args[1]!)
        : main();
started.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

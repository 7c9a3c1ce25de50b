/**
 * `npm run bench:memory`: the resident memory of one server process, the build `npm start` runs
 * (dist-server/index.js, with the flags of package.json's `server` script), while it streams
 * BENCH_STREAMS answers at once from a fake OpenAI-compatible upstream on loopback, BENCH_ROUNDS
 * rounds in a row. Prints the RSS after the start, after each round and at the peak (VmHWM), on
 * PostgreSQL (the target) and PGlite (for information; its database lives in the same process),
 * and the server's CPU time per answer (what a memory-saving flag costs).
 * The upstream and the load generator run in processes of their own. Figures only.
 *
 * The server runs as in production: the bench seeds the demo tenant and BENCH_MEMBERS members
 * first and starts it with SEED_DEMO=false (so no demo MCP server either).
 *
 * BENCH_STREAMS (default 500), BENCH_ROUNDS (5), BENCH_MEMBERS (50), BENCH_TOKENS (20),
 * BENCH_TOKEN_DELAY_MS (20), BENCH_CHATBOT (`paid`, default, or `free`), BENCH_TARGETS
 * (postgres,pglite), BENCH_ENTRY (a built server to measure instead of building this checkout),
 * BENCH_NODE_ARGS (node flags instead of the `server` script's, e.g. to compare V8 flags).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDemoTenant } from '../src/server/db/seed';
import { API_PREFIX } from '../src/shared/domain/http';
import { startServerProcess, stopBuiltServer } from '../tests/fixtures/builtServer';
import {
  type StreamResult,
  UPSTREAM_MODEL,
  addBenchMembers,
  ask,
  benchDatabases,
  type DatabaseKind,
  builtServerEntry,
  builtServerEnv,
  envInt,
  forkRole,
  loadRole,
  mib,
  nextMessage,
  ms,
  openBenchDatabase,
  percentile,
  processCpuMicros,
  processMemory,
  serverNodeArgs,
  signInMembers,
  upstreamRole,
} from './benchSupport';

const SCRIPT = fileURLToPath(import.meta.url);
const STREAMS = envInt('BENCH_STREAMS', 500);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const MEMBERS = envInt('BENCH_MEMBERS', 50);
const TOKENS = envInt('BENCH_TOKENS', 20);
const TOKEN_DELAY_MS = envInt('BENCH_TOKEN_DELAY_MS', 20);
const PAID = (process.env.BENCH_CHATBOT ?? 'paid') !== 'free';
/** How often the RSS is read during a round, for its highest value there. */
const SAMPLE_MS = 50;

interface Figures {
  kind: DatabaseKind;
  started: number;
  rounds: { rss: number; highest: number; ok: number; failed: number; seconds: number; cpuPerAnswer: number }[];
  peak: number;
}

/** The demo tenant and its members in a new database, and the server's environment for it. */
async function prepareDatabase(kind: DatabaseKind): Promise<{ env: NodeJS.ProcessEnv; emails: string[]; cleanUp: () => Promise<void> }> {
  const dataDir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-memory-')) : undefined;
  const handle = await openBenchDatabase(kind, { dataDir });
  await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'Bench workspace', openAiCompatibleModel: UPSTREAM_MODEL });
  const emails = await addBenchMembers(handle.db, MEMBERS);
  if (dataDir) {
    // One process at a time owns a PGlite directory: the server's.
    await handle.close();
    return { env: builtServerEnv({ dataDir }), emails, cleanUp: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  // The PostgreSQL database is dropped when the handle closes, after the server has stopped.
  return { env: builtServerEnv({ url: handle.url! }), emails, cleanUp: () => handle.close() };
}

async function measure(kind: DatabaseKind, entry: string, upstreamUrl: string, load: ChildProcess, upstream: ChildProcess): Promise<Figures> {
  const { env, emails, cleanUp } = await prepareDatabase(kind);
  const filesDir = mkdtempSync(join(tmpdir(), 'bench-memory-files-'));
  const server = await startServerProcess([...serverNodeArgs(), entry], {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    FILES_DIR: filesDir,
    LLM_BASE_URL: upstreamUrl,
    LLM_API_KEY: 'bench-key',
    LLM_MODEL: UPSTREAM_MODEL,
    SIGN_IN_RATE_LIMIT: '1000000',
  });
  const pid = server.child.pid!;
  try {
    const started = processMemory(pid)!.rss;
    const { chatUrl, tokens } = await signInMembers(`${server.origin}${API_PREFIX}`, emails, PAID);
    const rounds: Figures['rounds'] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      let highest = 0;
      const cpuBefore = processCpuMicros(pid) ?? Number.NaN;
      const sampler = setInterval(() => (highest = Math.max(highest, processMemory(pid)?.rss ?? 0)), SAMPLE_MS);
      const { results, seconds } = await ask<{ results: StreamResult[]; seconds: number }>(load, {
        type: 'run',
        chatUrl,
        tokens,
        streams: STREAMS,
        concurrency: STREAMS,
        prefix: `${kind}-${round}`,
      });
      clearInterval(sampler);
      await ask(upstream, { type: 'forget' });
      const ok = results.filter((result) => result.ok).length;
      const { rss } = processMemory(pid)!;
      const cpuPerAnswer = ((processCpuMicros(pid) ?? Number.NaN) - cpuBefore) / 1000 / results.length;
      rounds.push({ rss, highest: Math.max(highest, rss), ok, failed: results.length - ok, seconds, cpuPerAnswer });
      console.log(
        `  ${kind} round ${round}: RSS ${mib(rss)} (highest ${mib(Math.max(highest, rss))}), ${ok} answers in ${seconds.toFixed(1)} s, ${results.length - ok} failed, server CPU ${cpuPerAnswer.toFixed(1)} ms per answer`,
      );
    }
    return { kind, started, rounds, peak: processMemory(pid)!.peak };
  } finally {
    await stopBuiltServer(server.child);
    rmSync(filesDir, { recursive: true, force: true });
    await cleanUp();
  }
}

function report(all: Figures[]): void {
  console.log(
    `\nbench:memory  ${STREAMS} answers at once, ${ROUNDS} rounds, ${MEMBERS} members, ${TOKENS} tokens at ${TOKEN_DELAY_MS} ms/token, ${PAID ? 'paid' : 'unlimited'} model; node ${serverNodeArgs().join(' ') || '(no flags)'}`,
  );
  console.log(
    `  database   after start   ${Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1}`.padStart(9)).join(' ')}   peak   failed   CPU per answer (median round)`,
  );
  for (const figures of all) {
    const rounds = figures.rounds.map((round) => mib(round.rss).padStart(9)).join(' ');
    const failed = figures.rounds.reduce((sum, round) => sum + round.failed, 0);
    const cpu = figures.rounds.map((round) => round.cpuPerAnswer).sort((a, b) => a - b);
    console.log(
      `  ${figures.kind.padEnd(8)}   ${mib(figures.started).padStart(11)}   ${rounds}   ${mib(figures.peak)}   ${String(failed).padStart(6)}   ${ms(percentile(cpu, 50))}`,
    );
  }
}

async function main(): Promise<void> {
  const kinds = benchDatabases('postgres,pglite');
  const entry = builtServerEntry();
  const upstream = forkRole(SCRIPT, 'upstream');
  const load = forkRole(SCRIPT, 'load');
  try {
    const [{ baseUrl }] = await Promise.all([nextMessage<{ baseUrl: string }>(upstream, 'ready'), nextMessage(load, 'ready')]);
    const all: Figures[] = [];
    for (const kind of kinds) all.push(await measure(kind, entry, baseUrl, load, upstream));
    report(all);
  } finally {
    upstream.kill();
    load.kill();
  }
}

const role = process.argv[2];
const started =
  role === 'upstream' ? upstreamRole({ port: 0, tokens: TOKENS, delayMs: TOKEN_DELAY_MS }) : role === 'load' ? Promise.resolve(loadRole()) : main();
started.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

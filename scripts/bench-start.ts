/**
 * `npm run bench:start`: how long the process `npm start` runs (`node <flags> dist-server/index.js`,
 * package.json's `server` script) takes on an existing database from its start until it has served
 * its first request: the first screen's `GET /api/v1/tenants/`, sent every 5 ms from the moment
 * the process is spawned. Also the time until it printed where it listens, the CPU time it used
 * until the answer (steadier than wall time on a shared machine) and its RSS then. The database is
 * created and migrated by a first start that is not counted; the defaults of `npm start` otherwise
 * (the demo tenant checked, the demo MCP server started). Figures only.
 *
 * BENCH_RUNS (default 5), BENCH_TARGETS (pglite,postgres), BENCH_ENTRY (a built server to measure
 * instead of building this checkout), BENCH_NODE_ARGS (node flags instead of the `server` script's).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { API_PREFIX } from '../src/shared/domain/http';
import { stopBuiltServer } from '../tests/fixtures/builtServer';
import {
  benchDatabases,
  type DatabaseKind,
  builtServerEntry,
  builtServerEnv,
  envInt,
  mib,
  ms,
  openBenchDatabase,
  percentile,
  processCpuMicros,
  processMemory,
  serverNodeArgs,
} from './benchSupport';

const RUNS = envInt('BENCH_RUNS', 5);
const POLL_MS = 5;
/** A start that has not answered by then failed. */
const GIVE_UP_MS = 60_000;

interface Start {
  firstAnswer: number;
  listening: number;
  cpu: number;
  rss: number;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** One start of the built server: spawned, asked until it answers, then stopped. */
async function startOnce(entry: string, env: NodeJS.ProcessEnv, filesDir: string): Promise<Start> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, [...serverNodeArgs(), entry], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', FILES_DIR: filesDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let listening = Number.NaN;
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    if (Number.isNaN(listening) && output.includes('server on http://')) listening = performance.now() - began;
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  try {
    const url = `http://127.0.0.1:${port}${API_PREFIX}/tenants/`;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
      if (performance.now() - began > GIVE_UP_MS) throw new Error(`no answer within ${GIVE_UP_MS} ms:\n${output}`);
      const status = await fetch(url).then(
        async (response) => (await response.arrayBuffer(), response.status),
        () => null,
      );
      if (status === 200) {
        const firstAnswer = performance.now() - began;
        return { firstAnswer, listening, cpu: (processCpuMicros(child.pid!) ?? Number.NaN) / 1000, rss: processMemory(child.pid!)?.rss ?? Number.NaN };
      }
      if (status !== null) throw new Error(`the first request answered ${status}:\n${output}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, POLL_MS));
    }
  } finally {
    await stopBuiltServer(child);
  }
}

async function measure(kind: DatabaseKind, entry: string): Promise<Start[]> {
  const filesDir = mkdtempSync(join(tmpdir(), 'bench-start-files-'));
  const dataDir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-start-')) : undefined;
  // PostgreSQL: a new database the bench drops at the end (the server migrates it at its first start).
  const postgres = kind === 'postgres' ? await openBenchDatabase('postgres', { poolSize: 1 }) : undefined;
  const env = builtServerEnv(dataDir ? { dataDir } : { url: postgres!.url! });
  try {
    await startOnce(entry, env, filesDir);
    const starts: Start[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const start = await startOnce(entry, env, filesDir);
      starts.push(start);
      console.log(
        `  ${kind} start ${run}: first answer ${ms(start.firstAnswer)} (listening ${ms(start.listening)}), CPU ${ms(start.cpu)}, RSS ${mib(start.rss)}`,
      );
    }
    return starts;
  } finally {
    await postgres?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(filesDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const kinds = benchDatabases('pglite,postgres');
  const entry = builtServerEntry();
  const all: [DatabaseKind, Start[]][] = [];
  for (const kind of kinds) all.push([kind, await measure(kind, entry)]);
  console.log(`\nbench:start  ${RUNS} starts on an existing database; node ${serverNodeArgs().join(' ') || '(no flags)'}`);
  console.log('  database   first answer p50 (min–max)     listening p50   CPU p50    RSS p50');
  for (const [kind, starts] of all) {
    const sorted = (pick: (start: Start) => number) => starts.map(pick).sort((a, b) => a - b);
    const answers = sorted((start) => start.firstAnswer);
    console.log(
      `  ${kind.padEnd(8)}   ${ms(percentile(answers, 50)).padStart(10)} (${ms(answers[0]!)}–${ms(answers.at(-1)!)})   ${ms(
        percentile(
          sorted((start) => start.listening),
          50,
        ),
      ).padStart(11)}   ${ms(
        percentile(
          sorted((start) => start.cpu),
          50,
        ),
      ).padStart(9)}   ${mib(
        percentile(
          sorted((start) => start.rss),
          50,
        ),
      )}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

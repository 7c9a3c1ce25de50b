/**
 * Shared by the server benchmarks: environment figures, percentiles, child processes, databases,
 * and the pieces of a streaming run (the fake upstream, the load generator, members signed in).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { type Database, type DatabaseHandle, type QueryObserver, openPglite, openPostgres } from '../src/server/db/client';
import { DEMO_MEMBER } from '../src/server/db/seed';
import { memberGroupLinks, members } from '../src/server/db/schema';
import { startFakeLlmUpstream } from '../tests/fixtures/fakeLlmUpstream';

export const envInt = (name: string, fallback: number): number => {
  const value = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** PostgreSQL server for the benchmarks (each run creates and drops its own database), if any. */
export const benchPostgresUrl = (): string | undefined => process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

/** The embedded or PostgreSQL database, as BENCH_TARGETS lists them (PostgreSQL left out, with a line, without a URL). */
export type DatabaseKind = 'pglite' | 'postgres';
export function benchDatabases(defaults: string): DatabaseKind[] {
  const kinds = (process.env.BENCH_TARGETS ?? defaults).split(',').map((name) => name.trim() as DatabaseKind);
  if (!kinds.includes('postgres') || benchPostgresUrl()) return kinds;
  console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
  return kinds.filter((kind) => kind !== 'postgres');
}

/**
 * A fresh database of the given kind, migrated; PostgreSQL ones are dropped on close. `url` is the
 * PostgreSQL one's, for a server process of its own; a PGlite one lives in `dataDir` when given.
 */
export async function openBenchDatabase(
  kind: 'pglite' | 'postgres',
  options: { poolSize?: number; observe?: QueryObserver; dataDir?: string } = {},
): Promise<DatabaseHandle & { url?: string }> {
  if (kind === 'pglite') return openPglite(options.dataDir, options.observe);
  const adminUrl = benchPostgresUrl();
  if (!adminUrl) throw new Error('PostgreSQL benchmarks need BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const name = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), options.poolSize, options.observe);
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/**
 * This script again in a child process playing `role`, so that a load generator does not share
 * the event loop of the server it measures. Messages go both ways over the IPC channel.
 */
export function forkRole(script: string, role: string, args: string[] = [], { cpuProfileDir }: { cpuProfileDir?: string } = {}): ChildProcess {
  const execArgv = cpuProfileDir ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : process.execArgv;
  return fork(script, [role, ...args], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The next message from a child whose `type` is `type`. */
export function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string }) => {
      if (message?.type !== type) return;
      cleanup();
      resolve(message as T);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child exited with ${code} while waiting for ${type}`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Asks a child something and waits for its answer of the same type. */
export function ask<T>(child: ChildProcess, message: { type: string } & Record<string, unknown>): Promise<T> {
  const answer = nextMessage<T>(child, message.type);
  child.send(message);
  return answer;
}

/** In a child: answers each request type with the handler's result. */
export function serveRequests(handlers: Record<string, (message: Record<string, unknown>) => Promise<unknown> | unknown>): void {
  process.on('message', (message: { type: string } & Record<string, unknown>) => {
    const handler = handlers[message.type];
    if (!handler) return;
    void Promise.resolve(handler(message)).then(
      (result) => process.send!({ ...(result as object), type: message.type }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

// ---------------------------------------------------------------- processes seen from /proc

/** USER_HZ of /proc/<pid>/stat, 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time a process of this Linux machine has used, in microseconds; null elsewhere or once it is gone. */
export function processCpuMicros(pid: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1_000_000;
  } catch {
    return null;
  }
}

/** A process's resident memory now and at its peak so far (VmRSS, VmHWM), in bytes; null off Linux. */
export function processMemory(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return null;
  }
}

export const mib = (bytes: number): string => `${Math.round(bytes / 1024 / 1024)} MiB`;

// ---------------------------------------------------------------- streaming runs

export const UPSTREAM_MODEL = 'fake-model';

/**
 * In a child: the fake OpenAI-compatible upstream on `port`, streaming `tokens` chunks `delayMs`
 * apart. `ttft` answers each request's own time to first token, by the request's last message.
 */
export async function upstreamRole({ port, tokens, delayMs }: { port: number; tokens: number; delayMs: number }): Promise<void> {
  const upstream = await startFakeLlmUpstream({ chunks: Array.from({ length: tokens }, (_, i) => `tok${i} `), delayMs }, { port });
  serveRequests({
    ttft: () => {
      const byText: Record<string, number> = {};
      for (const request of upstream.requests) {
        const last = request.body.messages?.at(-1)?.content;
        if (typeof last === 'string' && request.firstChunkAt !== null) byText[last] = request.firstChunkAt - request.receivedAt;
      }
      upstream.requests.length = 0;
      return { byText };
    },
    // Without this, a run of many streams keeps every request it was sent.
    forget: () => ((upstream.requests.length = 0), {}),
  });
  process.send!({ type: 'ready', baseUrl: upstream.baseUrl });
}

/** Extra approved members of the demo tenant, each with the demo member's password and group; all of their emails. */
export async function addBenchMembers(db: Database, count: number): Promise<string[]> {
  const [demo] = await db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
  if (!demo) throw new Error('demo member missing');
  const emails = Array.from({ length: count - 1 }, (_, i) => `bench-${i}@demo.test`);
  if (emails.length > 0) {
    const rows = await db
      .insert(members)
      .values(emails.map((email, i) => ({ ...demo, id: undefined, email, name: `Bench member ${i}`, createdAt: undefined, updatedAt: undefined })))
      .returning({ id: members.id });
    await db.insert(memberGroupLinks).values(rows.map((row) => ({ tenantId: demo.tenantId, memberId: row.id, memberGroupId: demo.defaultMemberGroupId! })));
  }
  return [DEMO_MEMBER.email, ...emails];
}

/**
 * Signs each member in (the demo member's password) and finds the chatbot to stream from: a paid
 * model's, or the unlimited one's. The chat URL and one access token per member.
 */
export async function signInMembers(apiBase: string, emails: string[], paid: boolean): Promise<{ chatUrl: string; tokens: string[] }> {
  const tokens: string[] = [];
  for (const email of emails) {
    const response = await fetch(`${apiBase}/auth/sign-in/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
      body: JSON.stringify({ email, password: DEMO_MEMBER.password }),
    });
    if (response.status !== 200) throw new Error(`sign-in answered ${response.status}`);
    tokens.push(((await response.json()) as { access_token: string }).access_token);
  }
  const list = (await (await fetch(`${apiBase}/chatbots/?include_default=true`, { headers: { 'x-access-token': tokens[0]! } })).json()) as {
    items: { id: number; llm_model: { is_low_llm: boolean } }[];
  };
  const chatbot = list.items.find((bot) => bot.llm_model.is_low_llm !== paid);
  if (!chatbot) throw new Error('no chatbot to benchmark');
  return { chatUrl: `${apiBase}/chatbots/${chatbot.id}/chat/`, tokens };
}

export interface StreamResult {
  text: string;
  ok: boolean;
  clientTtft: number;
  total: number;
}

async function streamOnce(chatUrl: string, token: string | null, text: string): Promise<StreamResult> {
  const started = performance.now();
  const response = await fetch(chatUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify({ text }),
  });
  if (response.status !== 200) {
    await response.text();
    return { text, ok: false, clientTtft: Number.NaN, total: performance.now() - started };
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let firstTokenAt: number | null = null;
  let failed = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = decoder.decode(value, { stream: true });
    if (firstTokenAt === null) {
      seen += chunk;
      if (seen.includes('"type":"text"')) firstTokenAt = performance.now();
    }
    if (chunk.includes('"finish_reason":"error"')) failed = true;
  }
  return { text, ok: !failed, clientTtft: (firstTokenAt ?? performance.now()) - started, total: performance.now() - started };
}

/** In a child: the load generator; `run` sends `streams` chats, `concurrency` at a time, and answers how each went. */
export function loadRole(): void {
  serveRequests({
    run: async (message) => {
      const { chatUrl, tokens, streams, concurrency, prefix } = message as {
        chatUrl: string;
        tokens: (string | null)[];
        streams: number;
        concurrency: number;
        prefix: string;
      };
      const results: StreamResult[] = [];
      let next = 0;
      const began = performance.now();
      await Promise.all(
        Array.from({ length: Math.min(concurrency, streams) }, async () => {
          while (next < streams) {
            const index = next++;
            results.push(await streamOnce(chatUrl, tokens[index % tokens.length]!, `${prefix}-${index}`));
          }
        }),
      );
      return { results, seconds: (performance.now() - began) / 1000 };
    },
  });
  process.send!({ type: 'ready' });
}

// ---------------------------------------------------------------- the built server

/**
 * The server as `npm start` runs it: `BENCH_ENTRY` when given (a build to compare), else
 * dist-server/index.js built now from this checkout.
 */
export function builtServerEntry(): string {
  if (process.env.BENCH_ENTRY) return resolve(process.env.BENCH_ENTRY);
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  return join(root, 'dist-server/index.js');
}

/**
 * The node flags `npm start` gives the server (package.json's `server` script, `node <flags>
 * dist-server/index.js`), or BENCH_NODE_ARGS (space-separated; empty for none) to compare others.
 */
export function serverNodeArgs(): string[] {
  if (process.env.BENCH_NODE_ARGS !== undefined) return process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean);
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const flags = /\bnode((?: --?[\w-]+(?:=\S+)?)*) dist-server\/index\.js/.exec(scripts.server ?? '');
  if (!flags) throw new Error('package.json: the server script does not run `node … dist-server/index.js`');
  return flags[1]!.split(' ').filter(Boolean);
}

/**
 * The environment of a built server process on `database` (a PostgreSQL URL, or a PGlite
 * directory): this process's, without the database settings it may carry, plus `extra`.
 */
export function builtServerEnv(database: { url: string } | { dataDir: string }, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  return { ...inherited, LOG_LEVEL: 'warn', ...('url' in database ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir }), ...extra };
}

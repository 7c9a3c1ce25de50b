/** Shared by the server benchmarks: environment figures, percentiles, child processes, databases. */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type DatabaseHandle, type QueryObserver, openPglite, openPostgres } from '../src/server/db/client';

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

/** A fresh database of the given kind, migrated; PostgreSQL ones are dropped on close. */
export async function openBenchDatabase(kind: 'pglite' | 'postgres', options: { poolSize?: number; observe?: QueryObserver } = {}): Promise<DatabaseHandle> {
  if (kind === 'pglite') return openPglite(undefined, options.observe);
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

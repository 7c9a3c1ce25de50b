/**
 * Issue 19, point 4: PostgreSQL terminates the server's connections (a failover, an operator's
 * pg_terminate_backend, a pooler restart). A read, or a write its caller marked as safe to run twice,
 * that fails because its connection went away is run once more on a new connection instead of
 * answering 500 (db/connectionRetry.ts, db/postgresPool.ts); a write whose effect is unknown is not
 * retried and answers the usual 500 body. The server is a real process, so that anything thrown
 * outside a request (postgres-js did, from a timer) would end it and fail the test. The first tests
 * hold a lock from a second connection so that the server's statement is certainly waiting when its
 * backend is terminated; the last one terminates every connection of the server three times under a
 * burst of concurrent requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/rows';
import { seedDemoTenant } from '../../src/server/db/seed';
import { announcements } from '../../src/server/db/schema';
import { API_PREFIX } from '../../src/shared/domain/http';
import { type BuiltServer, startServerProcess, stopBuiltServer } from '../fixtures/builtServer';
import { serverBundleArgs } from '../fixtures/serverBundle';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, freshPostgresDatabase } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { waitFor } from './helpers/memberTransfer';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('lost PostgreSQL connections', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let directory: string;
  let server: BuiltServer;
  let api: ReturnType<typeof apiClient>;
  /** A second client of the same database: holds locks and terminates the server's backends. */
  let operator: postgres.Sql;
  let databaseName: string;

  beforeAll(async () => {
    database = await freshPostgresDatabase(adminUrl!);
    await seedDemoTenant(database.handle.db, { subdomain: 'other', tenantName: 'Other workspace' });
    directory = mkdtempSync(join(tmpdir(), 'fault-connection-'));
    server = await startServerProcess(await serverBundleArgs(), {
      ...process.env,
      DATABASE_URL: database.url,
      FILES_DIR: join(directory, 'files'),
      SMS_OUTBOX_DIR: join(directory, 'sms-outbox'),
      WEB_DIST_DIR: join(directory, 'no-web'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'fatal',
      // Every request reads its tenant and member, so every request meets the terminations.
      AUTH_CACHE_TTL_SECONDS: '0',
      SIGN_IN_RATE_LIMIT: '100000',
      SIGN_IN_EMAIL_RATE_LIMIT: '100000',
    });
    // The client only needs the API's address.
    api = apiClient({ apiBase: `${server.origin}${API_PREFIX}` } as TestServer);
    operator = postgres(database.url, { max: 3, onnotice: () => {} });
    databaseName = new URL(database.url).pathname.slice(1);
  }, 60_000);
  afterAll(async () => {
    if (server) await stopBuiltServer(server.child, 'SIGKILL');
    await operator?.end();
    await database?.handle.close();
    await database?.drop();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** The process is still the one that started, and it answers. */
  async function stillServing() {
    expect(server.child.exitCode, server.output()).toBeNull();
    expect((await api.call('/tenants/')).status).toBe(200);
  }

  /**
   * Runs `request` while `table` is locked against it, terminates the server backend that waits on
   * the lock, then releases it; resolves with what the request answered.
   */
  async function terminatedWhileWaiting<T>(table: string, request: () => Promise<T>): Promise<T> {
    const lock = await operator.reserve();
    try {
      await lock`begin`;
      await lock.unsafe(`lock table "${table}" in access exclusive mode`);
      const answer = request();
      const [waiting] = await waitFor(
        async () => {
          const rows = await operator<
            { pid: number }[]
          >`select pid from pg_stat_activity where datname = ${databaseName} and wait_event_type = 'Lock' and query like ${`%"${table}"%`}`;
          return rows.length > 0 ? rows : undefined;
        },
        `a statement waiting on ${table}`,
        20_000,
      );
      await operator`select pg_terminate_backend(${waiting!.pid})`;
      await lock`commit`;
      return await answer;
    } finally {
      lock.release();
    }
  }

  it('runs a read again on a new connection: the tenant of a request is still found', async () => {
    const answer = await terminatedWhileWaiting('tenants', () => api.call('/tenants/'));
    expect(answer).toMatchObject({ status: 200, body: { subdomain: 'demo' } });
    await stillServing();
  });

  it('runs the sign-in’s idempotent write again: the new session works', async () => {
    const answer = await terminatedWhileWaiting('refresh_tokens', () =>
      api.call('/auth/sign-in/', { method: 'POST', body: DEMO_MEMBER, headers: { 'x-client-kind': 'desktop' } }),
    );
    expect(answer.status).toBe(200);
    const refreshed = await api.call('/auth/refresh/', {
      method: 'POST',
      body: { refresh_token: answer.body.refresh_token },
      headers: { 'x-client-kind': 'desktop' },
    });
    expect(refreshed.status).toBe(200);
    await stillServing();
  });

  it('runs a refresh’s whole transaction again, which its caller declared safe', async () => {
    const { refresh_token: refreshToken } = await api.signIn(DEMO_MEMBER);
    const answer = await terminatedWhileWaiting('refresh_tokens', () =>
      api.call('/auth/refresh/', { method: 'POST', body: { refresh_token: refreshToken }, headers: { 'x-client-kind': 'desktop' } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.refresh_token).not.toBe(refreshToken);
    await stillServing();
  });

  it('answers a write it cannot retry with the generic 500, changes nothing, and keeps serving', async () => {
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const created = await api.call('/admin/announcements/', { method: 'POST', token: admin, body: { content: 'Before', is_active: false } });
    expect(created.status).toBe(200);
    const answer = await terminatedWhileWaiting('announcements', () =>
      api.call(`/admin/announcements/${created.body.id}/`, { method: 'PATCH', token: admin, body: { content: 'After' } }),
    );
    expect(answer).toEqual(expect.objectContaining({ status: 500, body: { code: 'internal_error', message: 'Server error, try later.' } }));
    const [row] = await database.handle.db.select().from(announcements).where(eq(announcements.id, created.body.id));
    expect(row!.content).toBe('Before');
    await stillServing();
    expect((await api.call(`/admin/announcements/${created.body.id}/`, { method: 'PATCH', token: admin, body: { content: 'After' } })).status).toBe(200);
  });

  it("reads on the pool that replaced a lost one exactly as on the first (Drizzle's type parsers carry over)", async () => {
    const { db } = database.handle;
    const read = async () => rowsOf<{ at: unknown; day: unknown }>(await db.execute(sql`select now() as at, current_date as day`))[0]!;
    const before = await read();
    await operator`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid() and backend_type = 'client backend'`;
    const after = await read();
    expect([typeof before.at, typeof before.day]).toEqual(['string', 'string']);
    expect([typeof after.at, typeof after.day]).toEqual(['string', 'string']);
    await stillServing();
  });

  it('answers every request of a burst while all its connections are terminated three times', async () => {
    const member = await api.signIn(DEMO_MEMBER);
    const other = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
    const requests: Array<() => Promise<{ status: number }>> = [
      () => api.call('/tenants/'),
      () => api.call('/tenants/', { tenant: 'other' }),
      () => api.call(`/members/${member.member.id}/`, { token: member.access_token }),
      () => api.call('/chatbots/?include_default=true', { token: member.access_token }),
      () => api.call('/chatbots/?include_default=true', { token: other, tenant: 'other' }),
      () => api.call('/auth/sign-in/', { method: 'POST', body: DEMO_MEMBER }),
    ];
    const CLIENTS = 50;
    const ROUNDS = 12;
    const answered: { what: number; status: number }[] = [];
    const burst = Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let round = 0; round < ROUNDS; round += 1) {
          const what = (client + round) % requests.length;
          answered.push({ what, status: (await requests[what]!()).status });
        }
      }),
    );
    const total = CLIENTS * ROUNDS;
    const terminated: number[] = [];
    for (const share of [0.2, 0.45, 0.7]) {
      await waitFor(async () => (answered.length >= total * share ? true : undefined), `${share * 100} % of the burst`, 50_000);
      const [row] = await operator<{ count: number }[]>`
        select count(pg_terminate_backend(pid))::int as count from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      terminated.push(row!.count);
    }
    await burst;
    expect(terminated.every((count) => count > 0)).toBe(true);
    expect(answered).toHaveLength(total);
    expect(answered.filter((answer) => answer.status !== 200)).toEqual([]);
    await stillServing();
  }, 60_000);
});

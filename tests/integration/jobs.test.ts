import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/server/app';
import { testConfig } from '../../src/server/config';
import { type Database, type DatabaseHandle, openPglite, openPostgres } from '../../src/server/db/client';
import { backgroundTasks, members, tenants } from '../../src/server/db/schema';
import { seedDemoTenant } from '../../src/server/db/seed';
import { type JobQueue, type JobType, type TaskOwner, createJobQueue } from '../../src/server/jobs/queue';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, freshPostgresDatabase, migratedPglite, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { defineCrashJobs, fastJobSettings } from './helpers/crashJobs';
import { ageDeadWorkersHeartbeats } from './helpers/deadWorker';

const postgresUrl = process.env.TEST_DATABASE_URL;

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function taskRow(db: Database, taskId: number) {
  const [task] = await db.select().from(backgroundTasks).where(eq(backgroundTasks.id, taskId));
  return task!;
}

/** The task once it is no longer running. */
function settled(db: Database, taskId: number, timeoutMs?: number) {
  return waitFor(
    async () => {
      const task = await taskRow(db, taskId);
      return task.status === 'running' ? undefined : task;
    },
    `task ${taskId} to settle`,
    timeoutMs,
  );
}

async function demoMemberId(db: Database, tenant: number): Promise<number> {
  const [member] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.tenantId, tenant), eq(members.email, DEMO_MEMBER.email)));
  return member!.id;
}

async function tenantId(db: Database, subdomain: string): Promise<number> {
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, subdomain));
  return tenant!.id;
}

const echoPayload = z.object({ text: z.string().max(100) });

describe('background jobs and GET /tasks/{id}/', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let memberToken: string;
  let owner: TaskOwner;
  let echo: JobType<z.infer<typeof echoPayload>>;
  let flaky: JobType<z.infer<typeof echoPayload>>;
  let broken: JobType<z.infer<typeof echoPayload>>;
  let slow: JobType<z.infer<typeof echoPayload>>;
  let jobs: JobQueue;
  const flakyAttempts: number[] = [];
  const brokenAttempts: number[] = [];
  let slowStarted = false;

  beforeAll(async () => {
    server = await startTestServer({
      extraTenants: ['other'],
      config: { ...fastJobSettings, JOB_CONCURRENCY: 2 },
      defineJobs: (queue) => {
        jobs = queue;
        echo = queue.define('test-echo', echoPayload, async ({ text }) => ({ echoed: text }));
        flaky = queue.define(
          'test-flaky',
          echoPayload,
          async ({ text }, { attempt }) => {
            flakyAttempts.push(attempt);
            if (attempt === 0) throw new Error('first attempt fails');
            return { echoed: text };
          },
          { retryLimit: 2, retryDelaySeconds: 0 },
        );
        broken = queue.define(
          'test-broken',
          echoPayload,
          async (_payload, { attempt }) => {
            brokenAttempts.push(attempt);
            throw new Error('internal detail: /srv/secret path');
          },
          { retryLimit: 1, retryDelaySeconds: 0 },
        );
        slow = queue.define('test-slow', echoPayload, async ({ text }) => {
          slowStarted = true;
          await new Promise((resolve) => setTimeout(resolve, 700));
          return { echoed: text };
        });
      },
    });
    api = apiClient(server);
    const signedIn = await api.signIn(DEMO_MEMBER);
    memberToken = signedIn.access_token;
    owner = { tenantId: await tenantId(server.db, server.config.DEFAULT_TENANT), memberId: signedIn.member.id };
  });
  afterAll(() => server?.close());

  it('runs a job and shows the task to its owner only', async () => {
    const taskId = await jobs.enqueue(echo, { text: 'hello' }, owner);
    const running = await api.call(`/tasks/${taskId}/`, { token: memberToken });
    expect(running.status).toBe(200);
    expect(['running', 'completed']).toContain(running.body.status);

    await settled(server.db, taskId);
    const done = await api.call(`/tasks/${taskId}/`, { token: memberToken });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: taskId, kind: 'test-echo', status: 'completed', result: { echoed: 'hello' } });
    expect(done.body.finished_at).not.toBeNull();

    const adminToken = (await api.signIn(DEMO_ADMIN)).access_token;
    expect((await api.call(`/tasks/${taskId}/`, { token: adminToken })).status).toBe(404);
    const otherTenantToken = (await api.signIn(DEMO_MEMBER, 'other')).access_token;
    expect((await api.call(`/tasks/${taskId}/`, { token: otherTenantToken, tenant: 'other' })).status).toBe(404);
    expect((await api.call(`/tasks/${taskId}/`)).status).toBe(401);
    expect((await api.call(`/tasks/${taskId + 1000}/`, { token: memberToken })).status).toBe(404);
  });

  it('retries a failed run and completes the task', async () => {
    const taskId = await jobs.enqueue(flaky, { text: 'again' }, owner);
    const task = await settled(server.db, taskId);
    expect(task.status).toBe('completed');
    expect(task.result).toEqual({ echoed: 'again' });
    expect(flakyAttempts).toEqual([0, 1]);
  });

  it('marks the task failed once the retries are used up, without showing the error to the member', async () => {
    const taskId = await jobs.enqueue(broken, { text: 'x' }, owner);
    const task = await settled(server.db, taskId);
    expect(task.status).toBe('failed');
    expect(brokenAttempts).toEqual([0, 1]);
    expect(task.error).toContain('internal detail');

    const shown = await api.call(`/tasks/${taskId}/`, { token: memberToken });
    expect(shown.body).toMatchObject({ status: 'failed', result: null });
    expect(JSON.stringify(shown.body)).not.toContain('internal detail');
  });

  it('refuses a payload its schema rejects and creates no task', async () => {
    const before = (await server.db.select().from(backgroundTasks)).length;
    await expect(jobs.enqueue(echo, { text: 'x'.repeat(101) }, owner)).rejects.toThrow();
    expect((await server.db.select().from(backgroundTasks)).length).toBe(before);
  });

  it('only enqueues in a process with JOB_CONCURRENCY=0: the task waits for a process that runs its type', async () => {
    const config = { ...server.config, JOB_CONCURRENCY: 0 };
    const enqueueOnly = createJobQueue({ db: server.db, config });
    let ran = false;
    const type = enqueueOnly.define('test-enqueue-only', echoPayload, async () => {
      ran = true;
    });
    const app = await buildApp({ db: server.db, config, jobs: enqueueOnly });
    try {
      const taskId = await enqueueOnly.enqueue(type, { text: 'later' }, owner);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await taskRow(server.db, taskId)).status).toBe('running');
      expect(ran).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('lets a running job finish when the app closes', async () => {
    const taskId = await jobs.enqueue(slow, { text: 'bye' }, owner);
    await waitFor(async () => (slowStarted ? true : undefined), 'the slow job to start');
    await server.app.close();
    const task = await taskRow(server.db, taskId);
    expect(task.status).toBe('completed');
  });
});

/**
 * Kills a server process in the middle of two jobs, then starts a new app on the same database: on
 * the database of the pass (the PostgreSQL pass would repeat the PGlite one as it is).
 */
const crashDatabases: { label: string; kind: 'pglite' | 'postgres' }[] = [
  postgresUrl ? { label: 'PostgreSQL', kind: 'postgres' } : { label: 'PGlite', kind: 'pglite' },
];

describe.each(crashDatabases)('a server killed mid-job ($label)', ({ kind }) => {
  let target: string;
  let handle: DatabaseHandle;
  let cleanup = async () => {};
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      const fresh = await freshPostgresDatabase(postgresUrl!);
      target = fresh.url;
      handle = fresh.handle;
      cleanup = fresh.drop;
    } else {
      target = mkdtempSync(join(tmpdir(), 'jobs-crash-'));
      handle = await openPglite(target, undefined, await migratedPglite());
      cleanup = async () => rmSync(target, { recursive: true, force: true });
    }
    await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'demo workspace' });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await handle?.close();
    await cleanup();
  });

  it('retries the job that has a retry left and fails the one that has none; neither runs twice', { timeout: 90_000 }, async () => {
    const tenant = await tenantId(handle.db, 'demo');
    const memberId = await demoMemberId(handle.db, tenant);
    // PGlite is one process's database: the killed process must be its only user while it runs.
    if (kind === 'pglite') await handle.close();

    const script = fileURLToPath(new URL('./helpers/jobWorkerProcess.ts', import.meta.url));
    child = spawn(process.execPath, ['--import', 'tsx', script, target, String(tenant), String(memberId)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = new Set<number>();
    let enqueued: { retried: number; failed: number } | undefined;
    const lines = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve, reject) => {
      child!.once('exit', (code) => reject(new Error(`the worker process exited early (${code})`)));
      lines.on('line', (line) => {
        const event = JSON.parse(line) as { started?: number; enqueued?: { retried: number; failed: number } };
        if (event.started) started.add(event.started);
        if (event.enqueued) enqueued = event.enqueued;
        if (enqueued && started.size === 2) resolve();
      });
    });
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = undefined;

    if (kind === 'pglite') handle = await openPglite(target);
    const runs: number[] = [];
    const config = testConfig({ ...fastJobSettings });
    const jobs = createJobQueue({ db: handle.db, config });
    const types = defineCrashJobs(jobs, async (_payload, { taskId, attempt }) => {
      runs.push(taskId);
      return { attempt };
    });
    // The new app starts as it would a minute after the crash, when the dead process's heartbeats have gone stale.
    expect(
      await ageDeadWorkersHeartbeats(
        handle.db,
        Object.values(types).map((type) => type.name),
      ),
    ).toBe(2);
    const app = await buildApp({ db: handle.db, config, jobs });
    try {
      const retried = await settled(handle.db, enqueued!.retried, 60_000);
      const failed = await settled(handle.db, enqueued!.failed, 60_000);
      expect(retried).toMatchObject({ status: 'completed', result: { attempt: 1 } });
      expect(failed.status).toBe('failed');
      expect(runs).toEqual([enqueued!.retried]);
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!postgresUrl)('two app instances on one PostgreSQL database', () => {
  it('share the jobs between them and run none twice', { timeout: 90_000 }, async () => {
    const fresh = await freshPostgresDatabase(postgresUrl!);
    // Each instance has its own connection pool, as separate processes would.
    const handles = [fresh.handle, await openPostgres(fresh.url, 3)];
    await seedDemoTenant(fresh.handle.db, { subdomain: 'demo', tenantName: 'demo workspace' });
    const config = testConfig({ ...fastJobSettings, JOB_CONCURRENCY: 1 });
    const runs: { instance: number; taskId: number }[] = [];
    const instancesSeen = new Set<number>();
    const instances = handles.map((handle, instance) => {
      const jobs = createJobQueue({ db: handle.db, config });
      const type = jobs.define('test-shared', echoPayload, async (_payload, { taskId }) => {
        runs.push({ instance, taskId });
        instancesSeen.add(instance);
        // The first jobs wait until the other instance runs one too, so both are seen working at once.
        await waitFor(async () => (instancesSeen.size === 2 ? true : undefined), 'both instances to run a job', 20_000);
        return { instance };
      });
      return { jobs, type };
    });
    const apps = await Promise.all(instances.map(({ jobs }, index) => buildApp({ db: handles[index]!.db, config, jobs })));
    try {
      const tenant = await tenantId(fresh.handle.db, 'demo');
      const owner = { tenantId: tenant, memberId: await demoMemberId(fresh.handle.db, tenant) };
      const taskIds: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const { jobs, type } = instances[i % 2]!;
        taskIds.push(await jobs.enqueue(type, { text: `job ${i}` }, owner));
      }
      for (const taskId of taskIds) expect((await settled(fresh.handle.db, taskId, 60_000)).status).toBe('completed');

      expect(runs.map((run) => run.taskId).sort((a, b) => a - b)).toEqual([...taskIds].sort((a, b) => a - b));
      expect(instancesSeen).toEqual(new Set([0, 1]));
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(handles.map((handle) => handle.close()));
      await fresh.drop();
    }
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../src/server/db/client';
import { backgroundTasks, customFields, memberCustomFieldValues, memberGroupLinks, memberGroups, members, tenants } from '../../../src/server/db/schema';

/** Polls until `probe` gives a value (no timed assertion: the test's own timeout bounds it). */
export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The task row once it is no longer running. */
export function settledTask(db: Database, taskId: number) {
  return waitFor(async () => {
    const [task] = await db.select().from(backgroundTasks).where(eq(backgroundTasks.id, taskId));
    return task && task.status !== 'running' ? task : undefined;
  }, `task ${taskId} to settle`);
}

export async function tenantIdOf(db: Database, subdomain: string): Promise<number> {
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, subdomain));
  return tenant!.id;
}

export async function memberIdOf(db: Database, tenantId: number, email: string): Promise<number> {
  const [member] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.tenantId, tenantId), eq(members.email, email)));
  return member!.id;
}

/**
 * `count` approved members `bulk-<i>@export.test` in the default group, with a Department value, by
 * multi-row inserts of 1,000 (fast enough to seed 10,000 in a test).
 */
export async function seedBulkMembers(db: Database, tenantId: number, count: number): Promise<void> {
  const [group] = await db
    .select({ id: memberGroups.id })
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenantId), eq(memberGroups.isDefault, true)));
  const [department] = await db
    .select({ id: customFields.id })
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenantId), eq(customFields.enName, 'Department')));
  for (let start = 0; start < count; start += 1000) {
    const size = Math.min(1000, count - start);
    const rows = await db
      .insert(members)
      .values(
        Array.from({ length: size }, (_, i) => ({
          tenantId,
          email: `bulk-${start + i}@export.test`,
          name: `Bulk member ${start + i}`,
          passwordHash: null,
          status: 'approved' as const,
          defaultMemberGroupId: group!.id,
          creditQuota: (start + i) % 2 === 0 ? 1000 : null,
        })),
      )
      .returning({ id: members.id });
    await db.insert(memberGroupLinks).values(rows.map((row) => ({ tenantId, memberId: row.id, memberGroupId: group!.id })));
    await db.insert(memberCustomFieldValues).values(rows.map((row) => ({ tenantId, memberId: row.id, customFieldId: department!.id, value: 'Sales' })));
  }
}

/**
 * Runs the crash worker (memberTransferWorker.ts) with `args`, waits until each of its tasks is under
 * way and stuck, kills it with SIGKILL and returns the tasks' ids. `started` gets the process at
 * once, so a test that fails meanwhile can still kill it.
 */
export async function killWorkerMidway(args: string[], started: (worker: ChildProcess) => void): Promise<number[]> {
  const script = fileURLToPath(new URL('./memberTransferWorker.ts', import.meta.url));
  const worker = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  started(worker);
  const taskIds = await new Promise<number[]>((resolve, reject) => {
    let tasks: number[] | undefined;
    let stuck = 0;
    worker.once('exit', (code) => reject(new Error(`the worker exited early (${code})`)));
    createInterface({ input: worker.stdout! }).on('line', (line) => {
      const event = JSON.parse(line) as { tasks?: number[]; stuck?: boolean };
      if (event.tasks) tasks = event.tasks;
      if (event.stuck) stuck += 1;
      if (tasks && stuck === tasks.length) resolve(tasks);
    });
  });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGKILL');
  await exited;
  return taskIds;
}

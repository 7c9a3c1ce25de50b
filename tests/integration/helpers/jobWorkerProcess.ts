/**
 * A server process the crash test kills with SIGKILL: it builds the app on the given database
 * (a PGlite directory or a PostgreSQL URL), enqueues one job of each crash type for the given owner
 * and reports each job as it starts; the handlers never return.
 * Usage: jobWorkerProcess.ts <pglite dir | postgres url> <tenant id> <member id>
 */
import { buildApp } from '../../../src/server/app';
import { testConfig } from '../../../src/server/config';
import { openPglite, openPostgres } from '../../../src/server/db/client';
import { createJobQueue } from '../../../src/server/jobs/queue';
import { defineCrashJobs, fastJobSettings } from './crashJobs';

const [target, tenantId, memberId] = process.argv.slice(2);
if (!target || !tenantId || !memberId) throw new Error('usage: jobWorkerProcess.ts <database> <tenant id> <member id>');

const handle = target.startsWith('postgres') ? await openPostgres(target) : await openPglite(target);
const config = testConfig({ ...fastJobSettings, JOB_CONCURRENCY: 2 });
const jobs = createJobQueue({ db: handle.db, config });
const types = defineCrashJobs(jobs, async (_payload, { taskId }) => {
  process.stdout.write(`${JSON.stringify({ started: taskId })}\n`);
  await new Promise(() => {});
});
await buildApp({ db: handle.db, config, jobs });
const owner = { tenantId: Number(tenantId), memberId: Number(memberId) };
const retried = await jobs.enqueue(types.retried, { note: 'retried' }, owner);
const failed = await jobs.enqueue(types.failed, { note: 'failed' }, owner);
process.stdout.write(`${JSON.stringify({ enqueued: { retried, failed } })}\n`);

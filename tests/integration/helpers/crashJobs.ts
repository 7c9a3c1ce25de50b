import { z } from 'zod';
import type { JobHandler, JobQueue, JobType } from '../../../src/server/jobs/queue';

/** A payload that says nothing; the crash tests only care about when and how often a job runs. */
const crashPayload = z.object({ note: z.string() });
type CrashPayload = z.infer<typeof crashPayload>;

/**
 * The two job types of the crash test, defined the same way by the process that is killed and by the
 * one that takes over: one with a retry left after a crash, one without. A heartbeat of 10 s (the
 * least pg-boss allows) is what reveals the dead process.
 */
export function defineCrashJobs(jobs: JobQueue, handler: JobHandler<CrashPayload>): { retried: JobType<CrashPayload>; failed: JobType<CrashPayload> } {
  return {
    retried: jobs.define('crash-retried', crashPayload, handler, { retryLimit: 1, retryDelaySeconds: 0, heartbeatSeconds: 10 }),
    failed: jobs.define('crash-failed', crashPayload, handler, { retryLimit: 0, heartbeatSeconds: 10 }),
  };
}

/** Settings that make a test notice a dead worker within seconds. */
export const fastJobSettings = { JOB_POLL_INTERVAL_SECONDS: 0.5, JOB_SUPERVISE_INTERVAL_SECONDS: 1, JOB_SHUTDOWN_TIMEOUT_SECONDS: 5 } as const;

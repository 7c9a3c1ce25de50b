import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type JobWithMetadata, PgBoss, fromDrizzle } from 'pg-boss';
import { z } from 'zod';
import { clock } from '../clock';
import type { ServerConfig } from '../config';
import type { AppDeps } from '../deps';
import { backgroundTasks } from '../db/schema';
import { queueConnection } from './queueDatabase';

/** Who a task belongs to: only this member of this tenant can read it. */
export interface TaskOwner {
  tenantId: number;
  memberId: number | null;
}

export interface JobContext extends TaskOwner {
  taskId: number;
  /** 0 on the first run, then 1, 2… for retries. */
  attempt: number;
  /** Aborted when the process shuts down before the handler returns; stop early and throw. */
  signal: AbortSignal;
  /** Records how far the job is (shown by `GET /tasks/{id}/`). */
  reportProgress(processed: number, total: number): Promise<void>;
}

/**
 * A failure the job knows to be final (no retry would help), with a code its owner may read
 * (`error_code` of the task, e.g. `timed_out`); the message stays in the server's log and row.
 */
export class TaskFailure extends Error {
  override name = 'TaskFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Runs one job; what it returns (JSON) becomes the task's result. May run more than once: keep it idempotent. */
export type JobHandler<P> = (payload: P, context: JobContext) => Promise<unknown>;

export interface JobTypeOptions {
  /** Runs after the first that a failing job gets (default 2). */
  retryLimit?: number;
  /** Seconds between a failure and the retry (default 10). */
  retryDelaySeconds?: number;
  /** Longest a single run may take before it counts as failed (default 15 minutes). */
  expireInSeconds?: number;
  /**
   * A running job refreshes its heartbeat every half of this; a job whose heartbeat is older (its
   * process died) counts as failed, long before `expireInSeconds`. At least 10 (default 30).
   */
  heartbeatSeconds?: number;
}

/** A defined job type; `enqueue` takes it so the payload is type-checked against its schema. */
export interface JobType<P> {
  readonly name: string;
  readonly schema: z.ZodType<P>;
}

interface JobQueueSettings {
  /** Jobs this process runs at once; 0 makes it enqueue only (another process runs them). */
  concurrency: number;
  /** How often an idle worker looks for new jobs. */
  pollIntervalSeconds: number;
  /** How often jobs of dead workers (stale heartbeat, expired) are looked for, across all processes. */
  superviseIntervalSeconds: number;
  /** How long closing waits for running jobs before failing them (they are retried elsewhere or later). */
  shutdownTimeoutMs: number;
}

function jobQueueSettings(config: ServerConfig): JobQueueSettings {
  return {
    concurrency: config.JOB_CONCURRENCY,
    pollIntervalSeconds: config.JOB_POLL_INTERVAL_SECONDS,
    superviseIntervalSeconds: config.JOB_SUPERVISE_INTERVAL_SECONDS,
    shutdownTimeoutMs: config.JOB_SHUTDOWN_TIMEOUT_SECONDS * 1000,
  };
}

export interface JobQueue {
  define<P>(name: string, schema: z.ZodType<P>, handler: JobHandler<P>, options?: JobTypeOptions): JobType<P>;
  /**
   * Creates the task (status running) and its job in one transaction; returns the task id. `fileKey`
   * names the stored file the task owns, given its id (removed by the task file sweep later).
   */
  enqueue<P>(type: JobType<P>, payload: P, owner: TaskOwner, options?: { fileKey?: (taskId: number) => string }): Promise<number>;
  start(logger: FastifyBaseLogger): Promise<void>;
  /** Stops taking jobs, waits for running ones up to the shutdown timeout, fails the rest. */
  stop(): Promise<void>;
}

/** Every job's data: the task it reports to and the typed payload. */
const envelopeSchema = z.object({
  taskId: z.number().int(),
  tenantId: z.number().int(),
  memberId: z.number().int().nullable(),
  payload: z.unknown(),
});
type Envelope = z.infer<typeof envelopeSchema>;

/** pg-boss copies a job here once it has failed for good, whichever way (handler error, timeout, dead worker). */
const FAILED_TASKS_QUEUE = 'failed-tasks';
const DEFAULT_HEARTBEAT_SECONDS = 30;
const FAILED_FOR_GOOD = 'The job did not finish and has no retries left (its worker stopped or it timed out).';

interface Definition {
  type: JobType<unknown>;
  handler: JobHandler<unknown>;
  options: JobTypeOptions;
}

/**
 * Background jobs on pg-boss, in the app's own database (PGlite or PostgreSQL). Each job reports to
 * a `background_tasks` row that its owner reads at `GET /tasks/{id}/`. Define every job type before
 * `start`. JOB_* set how many run at once, how often the queue looks for work and for dead workers,
 * and how long `stop` waits.
 */
export function createJobQueue({ db, config }: Pick<AppDeps, 'db' | 'config'>): JobQueue {
  const settings = jobQueueSettings(config);
  const boss = new PgBoss({
    ...queueConnection(db),
    // Jobs of dead workers are found by the per-queue monitor, which runs at the slower of the two.
    superviseIntervalSeconds: settings.superviseIntervalSeconds,
    monitorIntervalSeconds: settings.superviseIntervalSeconds,
    // Cron schedules are not used; their timers would only poll.
    schedule: false,
  });
  const definitions = new Map<string, Definition>();
  let started = false;
  let log: FastifyBaseLogger | undefined;

  async function finishTask(taskId: number, outcome: { status: 'completed'; result: unknown } | { status: 'failed'; error: string; errorCode?: string }) {
    await db
      .update(backgroundTasks)
      .set(
        outcome.status === 'completed'
          ? { status: 'completed', result: outcome.result ?? null, finishedAt: clock.now() }
          : { status: 'failed', error: outcome.error, errorCode: outcome.errorCode ?? null, finishedAt: clock.now() },
      )
      .where(and(eq(backgroundTasks.id, taskId), eq(backgroundTasks.status, 'running')));
  }

  async function isStillRunning(taskId: number): Promise<boolean> {
    const [task] = await db.select({ status: backgroundTasks.status }).from(backgroundTasks).where(eq(backgroundTasks.id, taskId));
    return task?.status === 'running';
  }

  async function runJob(definition: Definition, job: JobWithMetadata<Envelope>) {
    const envelope = envelopeSchema.parse(job.data);
    // A retry after the task was already settled (its process died between the two writes) has nothing left to do.
    if (!(await isStillRunning(envelope.taskId))) return;
    try {
      const payload = definition.type.schema.parse(envelope.payload);
      const { taskId, tenantId, memberId } = envelope;
      const reportProgress = async (processed: number, total: number) => {
        await db.update(backgroundTasks).set({ processed, total }).where(eq(backgroundTasks.id, taskId));
      };
      const result = await definition.handler(payload, { taskId, tenantId, memberId, attempt: job.retryCount, signal: job.signal, reportProgress });
      await finishTask(taskId, { status: 'completed', result });
    } catch (error) {
      if (error instanceof TaskFailure) {
        // Final by the job's own judgement: failed now, and the job itself ends (no retry).
        log?.warn({ err: error, job: definition.type.name, taskId: envelope.taskId }, 'background job failed for good');
        await finishTask(envelope.taskId, { status: 'failed', error: error.message, errorCode: error.code });
        return;
      }
      const isLastAttempt = job.retryCount >= job.retryLimit;
      log?.warn(
        { err: error, job: definition.type.name, taskId: envelope.taskId, attempt: job.retryCount, willRetry: !isLastAttempt },
        'background job failed',
      );
      if (isLastAttempt) await finishTask(envelope.taskId, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  return {
    define(name, schema, handler, options = {}) {
      if (started) throw new Error(`job type ${name} must be defined before the queue starts`);
      if (definitions.has(name)) throw new Error(`job type ${name} is already defined`);
      const type = { name, schema };
      definitions.set(name, { type, handler: handler as JobHandler<unknown>, options });
      return type;
    },

    async enqueue(type, payload, owner, options = {}) {
      if (!started) throw new Error('the job queue is not started');
      if (definitions.get(type.name)?.type !== type) throw new Error(`job type ${type.name} is not defined on this queue`);
      const parsed = type.schema.parse(payload);
      return db.transaction(async (tx) => {
        const [task] = await tx
          .insert(backgroundTasks)
          .values({ tenantId: owner.tenantId, memberId: owner.memberId, kind: type.name })
          .returning({ id: backgroundTasks.id });
        if (options.fileKey)
          await tx
            .update(backgroundTasks)
            .set({ fileKey: options.fileKey(task!.id) })
            .where(eq(backgroundTasks.id, task!.id));
        const envelope: Envelope = { taskId: task!.id, tenantId: owner.tenantId, memberId: owner.memberId, payload: parsed };
        await boss.send(type.name, envelope, { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) });
        return task!.id;
      });
    },

    async start(logger) {
      log = logger;
      boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
      await boss.start();
      await boss.createQueue(FAILED_TASKS_QUEUE);
      for (const definition of definitions.values()) {
        const { retryLimit = 2, retryDelaySeconds = 10, expireInSeconds = 900, heartbeatSeconds = DEFAULT_HEARTBEAT_SECONDS } = definition.options;
        const queueOptions = { retryLimit, retryDelay: retryDelaySeconds, expireInSeconds, heartbeatSeconds, deadLetter: FAILED_TASKS_QUEUE };
        await boss.createQueue(definition.type.name, queueOptions);
        // createQueue keeps the settings of a queue that already exists (an earlier release or another process made it).
        await boss.updateQueue(definition.type.name, queueOptions);
        // Loads the queue into pg-boss's cache now: an enqueue inside a transaction must not need a
        // second connection for it, and PGlite has only one.
        await boss.getJobById(definition.type.name, '00000000-0000-0000-0000-000000000000');
      }
      started = true;
      if (settings.concurrency === 0) return;
      const workOptions = { includeMetadata: true, localConcurrency: settings.concurrency, pollingIntervalSeconds: settings.pollIntervalSeconds } as const;
      for (const definition of definitions.values()) {
        await boss.work<Envelope, unknown, typeof workOptions>(definition.type.name, workOptions, async ([job]) => runJob(definition, job!));
      }
      await boss.work<Envelope, unknown, typeof workOptions>(FAILED_TASKS_QUEUE, workOptions, async ([job]) => {
        await finishTask(envelopeSchema.parse(job!.data).taskId, { status: 'failed', error: FAILED_FOR_GOOD });
      });
    },

    async stop() {
      await boss.stop({ graceful: true, timeout: settings.shutdownTimeoutMs });
    },
  };
}

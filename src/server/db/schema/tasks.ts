/** Task modes and background tasks. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

export const taskStatusEnum = pgEnum('task_status', ['running', 'completed', 'failed']);

export const taskModes = pgTable('task_modes', {
  id: id(),
  tenantId: tenantId(),
  /** A task mode has at least one of its two names; the missing one is '' (as a member group's). */
  koName: text('ko_name').notNull().default(''),
  enName: text('en_name').notNull().default(''),
  instructions: text('instructions').notNull().default(''),
  createdAt: createdAt(),
});

export const backgroundTasks = pgTable(
  'background_tasks',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    status: taskStatusEnum('status').notNull().default('running'),
    result: jsonb('result'),
    error: text('error'),
    /** Why it failed in words its owner may read (`TaskFailure`); `error` keeps the internals. */
    errorCode: text('error_code'),
    /** Rows done and rows to do, for jobs that report progress. */
    processed: integer('processed'),
    total: integer('total'),
    /**
     * The FileStore key of a file the task owns (an export's output, an upload's input); the task
     * file sweep (domains/tasks/taskFiles.ts) deletes it once the task's retention has passed and clears this.
     */
    fileKey: text('file_key'),
    createdAt: createdAt(),
    /** From the server's clock (src/server/clock.ts), so tests can age a task by moving it. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  // The sweep's question: finished tasks that still own a file, oldest first.
  (t) => [
    index('background_tasks_file_sweep_idx')
      .on(t.finishedAt)
      .where(sql`${t.fileKey} IS NOT NULL`),
  ],
);

import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema } from './common';

/** A background task (spec §3, §4): running, then completed or failed. */
export const taskSchema = z.object({
  id: z.number().int(),
  /** The job type that runs it, e.g. a members export. */
  kind: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  /** What the job produced (e.g. where to download an export); null until completed. */
  result: z.unknown().nullable(),
  /** Rows done out of rows to do, for jobs that report it (exports, uploads); null otherwise. */
  progress: z.object({ processed: z.number().int(), total: z.number().int() }).nullable(),
  /** Why a failed task failed, when its job says so in words a member may read (e.g. `timed_out`); null otherwise. */
  error_code: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

export const getTask = defineEndpoint({
  access: 'member',
  errors: { 404: ['not_found'] },
  method: 'GET',
  path: '/tasks/:id/',
  params: idParamsSchema,
  response: taskSchema,
  summary: 'A background task the member started (another member’s answers 404)',
  tags: ['tasks'],
});

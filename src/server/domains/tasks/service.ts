import { and, eq } from 'drizzle-orm';
import type { Task } from '../../../shared/api/tasks';
import type { Queryable } from '../../db/client';
import { backgroundTasks } from '../../db/schema';
import { notFound } from '../../errors';
import type { MemberRow } from '../../db/rows';

/** The member's own task; anyone else's (other tenants included) is not found. */
export async function getOwnTask(q: Queryable, member: MemberRow, taskId: number): Promise<Task> {
  const [task] = await q
    .select()
    .from(backgroundTasks)
    .where(and(eq(backgroundTasks.id, taskId), eq(backgroundTasks.tenantId, member.tenantId), eq(backgroundTasks.memberId, member.id)));
  if (!task) throw notFound('The task does not exist.');
  return toTask(task);
}

/** The wire form of a task row (internals such as `error` stay on the server). */
export function toTask(task: typeof backgroundTasks.$inferSelect): Task {
  return {
    id: task.id,
    kind: task.kind,
    status: task.status,
    result: task.status === 'completed' ? (task.result ?? null) : null,
    progress: task.total === null ? null : { processed: task.processed ?? 0, total: task.total },
    error_code: task.status === 'failed' ? task.errorCode : null,
    created_at: task.createdAt.toISOString(),
    finished_at: task.finishedAt?.toISOString() ?? null,
  };
}

import { and, asc, eq } from 'drizzle-orm';
import type { TaskMode } from '../../shared/api/taskModes';
import type { Database } from '../db/client';
import { taskModes } from '../db/schema';
import { notFound } from '../errors';

/** The tenant's task modes for the composer's chooser, in the order they were made. */
export async function listTaskModes(db: Database, tenantId: number): Promise<TaskMode[]> {
  const rows = await db
    .select({ id: taskModes.id, mode_name: taskModes.modeName })
    .from(taskModes)
    .where(eq(taskModes.tenantId, tenantId))
    .orderBy(asc(taskModes.id));
  return rows;
}

/**
 * The chosen task mode of a send (404 when it is not the tenant's). Read only when a mode is
 * chosen, one indexed row, so sends without a task mode cost no query and need no cache.
 */
export async function findTaskMode(db: Database, tenantId: number, id: number): Promise<{ name: string; instructions: string }> {
  const [row] = await db
    .select({ name: taskModes.modeName, instructions: taskModes.instructions })
    .from(taskModes)
    .where(and(eq(taskModes.tenantId, tenantId), eq(taskModes.id, id)));
  if (!row) throw notFound('The task mode does not exist.');
  return row;
}

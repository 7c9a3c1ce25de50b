import { and, asc, eq } from 'drizzle-orm';
import type { TaskMode } from '../../shared/api/taskModes';
import { localizedName, type SupportedLanguage } from '../../shared/domain/language';
import type { Database } from '../db/client';
import { taskModes } from '../db/schema';
import { notFound } from '../errors';

/** The tenant's task modes for the composer's chooser, in the order they were made; `mode_name` in `language`, the reader's. */
export async function listTaskModes(db: Database, tenantId: number, language: SupportedLanguage): Promise<TaskMode[]> {
  const rows = await db
    .select({ id: taskModes.id, ko_name: taskModes.koName, en_name: taskModes.enName })
    .from(taskModes)
    .where(eq(taskModes.tenantId, tenantId))
    .orderBy(asc(taskModes.id));
  return rows.map((row) => ({ ...row, mode_name: localizedName(row, language) }));
}

/**
 * The chosen task mode of a send (404 when it is not the tenant's), named in the sender's language.
 * Read only when a mode is chosen, one indexed row, so sends without a task mode cost no query and
 * need no cache.
 */
export async function findTaskMode(db: Database, tenantId: number, id: number, language: SupportedLanguage): Promise<{ name: string; instructions: string }> {
  const [row] = await db
    .select({ ko_name: taskModes.koName, en_name: taskModes.enName, instructions: taskModes.instructions })
    .from(taskModes)
    .where(and(eq(taskModes.tenantId, tenantId), eq(taskModes.id, id)));
  if (!row) throw notFound('The task mode does not exist.');
  return { name: localizedName(row, language), instructions: row.instructions };
}

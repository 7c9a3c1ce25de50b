import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminTaskMode, createTaskModeBodySchema, updateTaskModeBodySchema } from '../../../shared/api/admin/taskModes';
import type { TaskMode } from '../../../shared/api/taskModes';
import { diffFields } from '../../../shared/domain/audit';
import { type BilingualName, hasOneName, localizedName, type SupportedLanguage } from '../../../shared/domain/language';
import { TASK_MODES_MAX } from '../../../shared/domain/tenantSettings';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { taskModes } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { givenNames } from '../../shared/bilingualNames';

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

/* The console's editor of task modes (docs/decisions/0024-bilingual-names-fields-modes.md). */

type TaskModeRow = typeof taskModes.$inferSelect;
/** The admin who edits modes: the spec's single `mode_name` is a name in their language. */
type Admin = AuditActor & Pick<MemberRow, 'language'>;

const toAdminTaskMode = (row: TaskModeRow, language: SupportedLanguage): AdminTaskMode => {
  const names = { ko_name: row.koName, en_name: row.enName };
  return { id: row.id, ...names, mode_name: localizedName(names, language), instructions: row.instructions };
};

/** What an audit row keeps of a mode: its names and instructions, named in English (else Korean) like a group. */
const auditedMode = (row: TaskModeRow) => {
  const { id: _id, ...mode } = toAdminTaskMode(row, 'en');
  return mode;
};

const nameTaken = (field: keyof BilingualName, name: string) =>
  new AppError(409, 'task_mode_name_taken', 'A task mode of this name exists already.', { field, field_name: name });

/** Two modes of one name would be two alike entries of the chooser: each name is unique in its language, letter case ignored; '' never clashes. */
async function assertNamesFree(q: Queryable, tenantId: number, names: Partial<BilingualName>, exceptId?: number): Promise<void> {
  for (const key of ['ko_name', 'en_name'] as const) {
    const name = names[key];
    if (!name) continue;
    const column = key === 'ko_name' ? taskModes.koName : taskModes.enName;
    const [clash] = await q
      .select({ id: taskModes.id })
      .from(taskModes)
      .where(and(eq(taskModes.tenantId, tenantId), sql`lower(${column}) = lower(${name})`, exceptId ? ne(taskModes.id, exceptId) : undefined))
      .limit(1);
    if (clash) throw nameTaken(key, name);
  }
}

export async function listAdminTaskModes(db: Database, tenantId: number, language: SupportedLanguage): Promise<AdminTaskMode[]> {
  const rows = await db.select().from(taskModes).where(eq(taskModes.tenantId, tenantId)).orderBy(asc(taskModes.id));
  return rows.map((row) => toAdminTaskMode(row, language));
}

export async function createTaskMode(db: Database, tenantId: number, admin: Admin, body: z.output<typeof createTaskModeBodySchema>): Promise<AdminTaskMode> {
  const [existing] = await db.select({ n: count() }).from(taskModes).where(eq(taskModes.tenantId, tenantId));
  if ((existing?.n ?? 0) >= TASK_MODES_MAX) throw new AppError(422, 'validation_error', `A workspace can have at most ${TASK_MODES_MAX} task modes.`);
  const given = givenNames(body, body.mode_name, admin.language, (key) => body[key] === '');
  const names = { ko_name: given.ko_name ?? '', en_name: given.en_name ?? '' };
  return db.transaction(async (tx) => {
    await assertNamesFree(tx, tenantId, names);
    const [row] = await tx.insert(taskModes).values({ tenantId, koName: names.ko_name, enName: names.en_name, instructions: body.instructions }).returning();
    if (!row) throw new Error('Task mode insert returned no row');
    await recordAudit(tx, { tenantId, actor: admin, action: 'task_mode.create', targetType: 'task_mode', targetId: row.id, changes: auditedMode(row) });
    return toAdminTaskMode(row, admin.language);
  });
}

export async function updateTaskMode(
  db: Database,
  tenantId: number,
  admin: Admin,
  id: number,
  patch: z.output<typeof updateTaskModeBodySchema>,
): Promise<AdminTaskMode> {
  return db.transaction(async (tx) => {
    const [mode] = await tx
      .select()
      .from(taskModes)
      .where(and(eq(taskModes.tenantId, tenantId), eq(taskModes.id, id)));
    if (!mode) throw notFound('The task mode does not exist.');
    const given = givenNames(patch, patch.mode_name, admin.language, (key) => patch[key] === undefined);
    if (!hasOneName({ ko_name: given.ko_name ?? mode.koName, en_name: given.en_name ?? mode.enName })) {
      throw new AppError(422, 'task_mode_name_required', 'A task mode needs a Korean or an English name.');
    }
    await assertNamesFree(tx, tenantId, given, id);
    const [updated] = await tx
      .update(taskModes)
      .set({ koName: given.ko_name, enName: given.en_name, instructions: patch.instructions })
      .where(eq(taskModes.id, id))
      .returning();
    const changes = { mode_name: auditedMode(updated!).mode_name, ...diffFields(auditedMode(mode), auditedMode(updated!)) };
    await recordAudit(tx, { tenantId, actor: admin, action: 'task_mode.update', targetType: 'task_mode', targetId: id, changes });
    return toAdminTaskMode(updated!, admin.language);
  });
}

export async function deleteTaskMode(db: Database, tenantId: number, admin: AuditActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(taskModes)
      .where(and(eq(taskModes.tenantId, tenantId), eq(taskModes.id, id)))
      .returning();
    if (!removed) throw notFound('The task mode does not exist.');
    await recordAudit(tx, { tenantId, actor: admin, action: 'task_mode.delete', targetType: 'task_mode', targetId: id, changes: auditedMode(removed) });
  });
}

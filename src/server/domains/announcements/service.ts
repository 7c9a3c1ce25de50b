import { and, count, desc, eq, ne } from 'drizzle-orm';
import type { Announcement } from '../../../shared/api/announcements';
import type { Paginated } from '../../../shared/api/common';
import { type PageRequest, paginate } from '../../shared/pagination';
import type { Database, Queryable } from '../../db/client';
import type { AnnouncementRow } from '../../db/rows';
import { announcements } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { lockTenant } from '../../db/locks';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { diffFields } from '../../../shared/domain/audit';

const toDto = (row: AnnouncementRow): Announcement => ({
  id: row.id,
  content: row.content,
  is_active: row.isActive,
  created_at: row.createdAt.toISOString(),
});

const newestFirst = [desc(announcements.createdAt), desc(announcements.id)];

export async function activeAnnouncement(q: Queryable, tenantId: number): Promise<Announcement | null> {
  const [row] = await q
    .select()
    .from(announcements)
    .where(and(eq(announcements.tenantId, tenantId), eq(announcements.isActive, true)))
    .orderBy(...newestFirst)
    .limit(1);
  return row ? toDto(row) : null;
}

export async function latestAnnouncement(q: Queryable, tenantId: number): Promise<Announcement | null> {
  const [row] = await q
    .select()
    .from(announcements)
    .where(eq(announcements.tenantId, tenantId))
    .orderBy(...newestFirst)
    .limit(1);
  return row ? toDto(row) : null;
}

export async function listAnnouncements(q: Queryable, tenantId: number, request: PageRequest): Promise<Paginated<Announcement>> {
  const where = eq(announcements.tenantId, tenantId);
  return paginate(request, {
    count: async () => (await q.select({ value: count() }).from(announcements).where(where))[0]?.value ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select()
        .from(announcements)
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map(toDto),
  });
}

/** Spec §4: creating or activating one announcement deactivates all the others, atomically. */
async function deactivateOthers(q: Queryable, tenantId: number, keepId: number): Promise<number[]> {
  const switchedOff = await q
    .update(announcements)
    .set({ isActive: false, updatedAt: new Date() })
    .where(and(eq(announcements.tenantId, tenantId), eq(announcements.isActive, true), ne(announcements.id, keepId)))
    .returning({ id: announcements.id });
  return switchedOff.map((row) => row.id);
}

/** The audit log says which announcements an activation switched off (none: nothing said). */
const deactivatedChange = (ids: number[]) => (ids.length > 0 ? { deactivated_announcement_ids: ids } : {});

export async function createAnnouncement(
  db: Database,
  tenantId: number,
  actor: AuditActor,
  input: { content: string; is_active: boolean },
): Promise<Announcement> {
  return db.transaction(async (tx) => {
    // Two admins activating at once must not leave two active announcements.
    await lockTenant(tx, tenantId);
    const [row] = await tx.insert(announcements).values({ tenantId, content: input.content, isActive: input.is_active }).returning();
    if (!row) throw new Error('Insert returned no row');
    const deactivated = row.isActive ? await deactivateOthers(tx, tenantId, row.id) : [];
    const changes = { content: row.content, is_active: row.isActive, ...deactivatedChange(deactivated) };
    await recordAudit(tx, { tenantId, actor, action: 'announcement.create', targetType: 'announcement', targetId: row.id, changes });
    return toDto(row);
  });
}

export async function updateAnnouncement(
  db: Database,
  tenantId: number,
  actor: AuditActor,
  id: number,
  patch: { content: string } | { is_active: boolean },
): Promise<Announcement> {
  return db.transaction(async (tx) => {
    await lockTenant(tx, tenantId);
    const [before] = await tx
      .select()
      .from(announcements)
      .where(and(eq(announcements.tenantId, tenantId), eq(announcements.id, id)));
    if (!before) throw notFound();
    const [row] = await tx
      .update(announcements)
      .set({ ...('content' in patch ? { content: patch.content } : { isActive: patch.is_active }), updatedAt: new Date() })
      .where(and(eq(announcements.tenantId, tenantId), eq(announcements.id, id)))
      .returning();
    if (!row) throw notFound();
    const deactivated = row.isActive && 'is_active' in patch ? await deactivateOthers(tx, tenantId, row.id) : [];
    const changes = { ...diffFields(toDto(before), toDto(row)), ...deactivatedChange(deactivated) };
    await recordAudit(tx, { tenantId, actor, action: 'announcement.update', targetType: 'announcement', targetId: row.id, changes });
    return toDto(row);
  });
}

export async function deleteAnnouncement(db: Database, tenantId: number, actor: AuditActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(announcements)
      .where(and(eq(announcements.tenantId, tenantId), eq(announcements.id, id)))
      .returning();
    // Spec §5 names this code for a delete whose id is missing.
    if (!deleted) throw new AppError(404, 'announcement_update_failed', 'The announcement does not exist.');
    const changes = { content: deleted.content, is_active: deleted.isActive };
    await recordAudit(tx, { tenantId, actor, action: 'announcement.delete', targetType: 'announcement', targetId: id, changes });
  });
}

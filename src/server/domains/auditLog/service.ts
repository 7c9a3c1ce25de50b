import { type SQL, and, count, desc, eq, gte, ilike, lt, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuditEntry as AuditEntryDto, auditLogQuerySchema } from '../../../shared/api/admin/auditLog';
import type { Paginated } from '../../../shared/api/common';
import type { AuditAction, AuditChanges } from '../../../shared/domain/audit';
import { toWellFormedText } from '../../../shared/domain/text';
import type { Queryable } from '../../db/client';
import { auditLog } from '../../db/schema';
import { escapeLike } from '../chatbots/service';
import { paginate } from '../../shared/pagination';

/** The admin acting: what `request.member` carries (id, name, email). */
export interface AuditActor {
  id: number;
  name: string;
  email: string;
}

export interface AuditEntry {
  tenantId: number;
  actor: AuditActor;
  action: AuditAction;
  targetType: string;
  targetId?: string | number | null;
  changes?: AuditChanges;
}

/**
 * Records one admin write. Pass the transaction that makes the change, so the record and the
 * change commit or roll back together (an audit row for a write that did not happen, or a write
 * without its row, would both be lies).
 */
export async function recordAudit(q: Queryable, entry: AuditEntry): Promise<void> {
  await recordAudits(q, [entry]);
}

/**
 * jsonb refuses a string holding half a surrogate pair (text columns store it as U+FFFD), so a
 * value the contract let through must not make the change it records fail.
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return toWellFormedText(value);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [toWellFormedText(key), wellFormed(inner)]));
  return value;
}

/** Bulk writes (bulk delete, bulk approve…) record a row per target in one statement. */
export async function recordAudits(q: Queryable, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await q.insert(auditLog).values(
    entries.map((e) => ({
      tenantId: e.tenantId,
      actorId: e.actor.id,
      actorName: e.actor.name,
      actorEmail: e.actor.email,
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId == null ? null : String(e.targetId),
      changes: wellFormed(e.changes ?? {}) as AuditChanges,
    })),
  );
}

type AuditLogRow = typeof auditLog.$inferSelect;

const toDto = (row: AuditLogRow): AuditEntryDto => ({
  id: row.id,
  action: row.action as AuditAction,
  actor: { id: row.actorId, name: row.actorName, email: row.actorEmail },
  target_type: row.targetType,
  target_id: row.targetId,
  changes: row.changes,
  created_at: row.createdAt.toISOString(),
});

/** The tenant's entries, newest first, with the console's filters; read only (the table refuses changes). */
export async function listAuditLog(q: Queryable, tenantId: number, query: z.output<typeof auditLogQuerySchema>): Promise<Paginated<AuditEntryDto>> {
  const filters: (SQL | undefined)[] = [
    eq(auditLog.tenantId, tenantId),
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.actor_id ? eq(auditLog.actorId, query.actor_id) : undefined,
    query.target_type ? eq(auditLog.targetType, query.target_type) : undefined,
    query.from ? gte(auditLog.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(auditLog.createdAt, new Date(query.to)) : undefined,
  ];
  if (query.search_term) {
    const like = `%${escapeLike(query.search_term)}%`;
    filters.push(or(ilike(auditLog.actorName, like), ilike(auditLog.actorEmail, like), eq(auditLog.targetId, query.search_term)));
  }
  const where = and(...filters);
  return paginate(query, {
    count: async () => (await q.select({ value: count() }).from(auditLog).where(where))[0]?.value ?? 0,
    rows: ({ limit, offset }) => q.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).offset(offset),
    toItems: (rows) => rows.map(toDto),
  });
}

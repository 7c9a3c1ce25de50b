import type { AuditAction, AuditChanges } from '../../shared/domain/audit';
import type { Queryable } from '../db/client';
import { auditLog } from '../db/schema';

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
      changes: e.changes ?? {},
    })),
  );
}

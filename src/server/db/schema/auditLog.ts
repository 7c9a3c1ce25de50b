/** The audit log of admin writes. */
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

/**
 * Every admin write (DESIGN §5, issue 11): who did what to which row, and the change, inserted in
 * the same transaction as the change (domains/auditLog/service.ts). No endpoint updates or deletes a row.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    tenantId: tenantId(),
    /** The admin who acted; null once that member is deleted (their name and email stay below). */
    actorId: integer('actor_id').references(() => members.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email').notNull(),
    /** One of AUDIT_ACTIONS in shared/domain/audit.ts, e.g. `member.update`. */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** What changed: `{ field: { from, to } }` for edits, the created or deleted values otherwise. */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_tenant_idx').on(t.tenantId, t.createdAt), index('audit_log_action_idx').on(t.tenantId, t.action)],
);

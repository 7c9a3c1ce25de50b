import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idTextSchema, isoDateTime, pageQuerySchema, paginatedSchema } from '../common';
import { AUDIT_ACTIONS } from '../../domain/audit';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';

/** One recorded admin write (issue 11). The actor's name and email are kept as they were then. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  action: z.enum(AUDIT_ACTIONS),
  actor: z.object({ id: z.number().int().nullable(), name: z.string(), email: z.string() }),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** `{ field: { from, to } }` for edited fields; plain values name the target or what was created or deleted. */
  changes: z.record(z.string(), z.unknown()),
  created_at: isoDateTime,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const instant = z.iso.datetime({ offset: true });

export const auditLogQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor_id: idTextSchema.optional(),
  target_type: z.string().trim().min(1).max(50).optional(),
  /** From this instant on (the client sends the start of the admin's local day). */
  from: instant.optional(),
  /** Before this instant (the client sends the start of the day after the admin's last day). */
  to: instant.optional(),
  /** Part of the actor's name or email, or the target's id. */
  search_term: z.string().trim().max(200).optional(),
});
export type AuditLogQuery = z.input<typeof auditLogQuerySchema>;

export const listAuditLog = defineEndpoint({
  method: 'GET',
  path: '/admin/audit-log/',
  access: 'admin',
  errors: {},
  query: auditLogQuerySchema,
  response: paginatedSchema(auditEntrySchema),
  summary: "The tenant's admin writes, newest first (read only: nothing changes or deletes an entry)",
  tags: ['admin'],
});

import { and, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { ssoWhitelistListQuerySchema } from '../../../shared/api/admin/ssoWhitelist';
import { validateEmail } from '../../../shared/domain/validation';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { ssoWhitelist } from '../../db/schema';
import { AppError } from '../../errors';
import { recordAudit, recordAudits } from '../auditLog/service';
import { escapeLike } from '../chatbots/service';
import { paginate } from '../../shared/pagination';

/**
 * The SSO whitelist (spec §2, §5, §7): the emails allowed to use SSO when the tenant is
 * whitelist-only (`domains/sso/service.ts` checks it). Emails are stored lower-cased, one row per email.
 */

type ListQuery = z.output<typeof ssoWhitelistListQuerySchema>;

const ORDERS = {
  'id.desc': [desc(ssoWhitelist.id)],
  'id.asc': [asc(ssoWhitelist.id)],
  'email.asc': [asc(ssoWhitelist.email), asc(ssoWhitelist.id)],
  'email.desc': [desc(ssoWhitelist.email), desc(ssoWhitelist.id)],
} as const;

const toEntry = (row: typeof ssoWhitelist.$inferSelect) => ({ id: row.id, email: row.email, name: row.name, created_at: row.createdAt.toISOString() });

export async function listWhitelist(q: Queryable, tenantId: number, query: ListQuery) {
  const pattern = query.search_term ? `%${escapeLike(query.search_term)}%` : null;
  const where = and(eq(ssoWhitelist.tenantId, tenantId), pattern ? or(ilike(ssoWhitelist.email, pattern), ilike(ssoWhitelist.name, pattern)) : undefined);
  return paginate(query, {
    count: async () => (await q.select({ n: count() }).from(ssoWhitelist).where(where))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select()
        .from(ssoWhitelist)
        .where(where)
        .orderBy(...ORDERS[query.order_by])
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map(toEntry),
  });
}

/**
 * POST …/bulk-upsert/: adds the valid emails the list does not hold; the others are counted as
 * existing, and what is not an email is reported back (nothing stored for it). One audit row per
 * call, naming the emails added.
 */
export async function upsertWhitelist(db: Database, admin: MemberRow, submitted: string[]) {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  for (const raw of submitted) {
    const email = raw.trim().toLowerCase();
    if (validateEmail(email)) invalid.add(raw.trim());
    else valid.add(email);
  }
  const emails = [...valid];
  return db.transaction(async (tx) => {
    const added = emails.length
      ? await tx
          .insert(ssoWhitelist)
          .values(emails.map((email) => ({ tenantId: admin.tenantId, email })))
          .onConflictDoNothing()
          .returning({ email: ssoWhitelist.email })
      : [];
    if (added.length > 0) {
      await recordAudit(tx, {
        tenantId: admin.tenantId,
        actor: admin,
        action: 'sso_whitelist.upsert',
        targetType: 'sso_whitelist',
        changes: { added: added.map((row) => row.email) },
      });
    }
    return { added: added.length, existing: emails.length - added.length, invalid: [...invalid] };
  });
}

/** POST …/bulk-delete/: 404 when none of the ids is an entry of the tenant. */
export async function deleteWhitelistEntries(db: Database, admin: MemberRow, ids: number[]) {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(ssoWhitelist)
      .where(and(eq(ssoWhitelist.tenantId, admin.tenantId), inArray(ssoWhitelist.id, ids)))
      .returning({ id: ssoWhitelist.id, email: ssoWhitelist.email });
    if (deleted.length === 0) throw new AppError(404, 'not_found', 'No such whitelist entry.');
    await recordAudits(
      tx,
      deleted.map((row) => ({
        tenantId: admin.tenantId,
        actor: admin,
        action: 'sso_whitelist.delete' as const,
        targetType: 'sso_whitelist',
        targetId: row.id,
        changes: { email: row.email },
      })),
    );
    return { deleted: deleted.length };
  });
}

/** A CSV cell: quoted when it holds a separator, a quote or a line break; a leading =, +, - or @ is defused for spreadsheets. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** GET …/export/: the whole list, oldest first, as CSV (a byte order mark so spreadsheets read it as UTF-8). */
export async function exportWhitelist(q: Queryable, tenantId: number): Promise<string> {
  const rows = await q.select().from(ssoWhitelist).where(eq(ssoWhitelist.tenantId, tenantId)).orderBy(asc(ssoWhitelist.id));
  const lines = rows.map((row) => [row.email, row.name ?? '', row.createdAt.toISOString()].map(csvCell).join(','));
  return `\uFEFF${['email,name,created_at', ...lines].join('\r\n')}\r\n`;
}

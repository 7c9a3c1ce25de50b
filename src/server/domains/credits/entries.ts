import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CreditEntry } from '../../../shared/api/credits';
import { displayCredits } from '../../../shared/domain/credits';
import type { Paginated } from '../../../shared/api/common';
import type { Database } from '../../db/client';
import { creditBalances, creditLedger } from '../../db/schema';
import { type PageRequest, paginate } from '../../shared/pagination';
import { poolRemaining, tenantPoolRow } from './service';

const expiry = alias(creditLedger, 'expiry');

/**
 * Whose credit entries: the tenant pool's (organisation members and administrators), or an
 * individual's own purchases (domains/billing/payments grants an individual's plan credits to them).
 */
export type CreditEntryScope = { kind: 'pool' } | { kind: 'member'; memberId: number };

/** The scope's own grants (not expiries): positive; the pool's name neither member nor group. */
const grantsOf = (tenantId: number, scope: CreditEntryScope) =>
  and(
    eq(creditLedger.tenantId, tenantId),
    eq(creditLedger.kind, 'grant'),
    gt(creditLedger.amount, 0),
    scope.kind === 'pool' ? isNull(creditLedger.memberId) : eq(creditLedger.memberId, scope.memberId),
    isNull(creditLedger.memberGroupId),
  );

interface GrantUse {
  id: number;
  amount: number;
  usageEndDate: string | null;
  /** What the expiry took back; null while the grant is live. */
  expiredAmount: number | null;
}

/**
 * How much of each grant was used. An expired grant used what the expiry did not take back. The
 * live grants share the rest of the pool's usage in the order they lapse (the earliest end first,
 * as domains/credits/periods expires them), so the last to lapse is the last to be touched.
 */
export function grantUsage(grants: GrantUse[], poolRemaining: number): Map<number, number> {
  const used = new Map<number, number>();
  const live = grants.filter((grant) => grant.expiredAmount === null);
  for (const grant of grants) if (grant.expiredAmount !== null) used.set(grant.id, grant.amount + grant.expiredAmount);
  live.sort((a, b) => (a.usageEndDate ?? '9999').localeCompare(b.usageEndDate ?? '9999') || a.id - b.id);
  let toShare = Math.max(0, live.reduce((sum, grant) => sum + grant.amount, 0) - poolRemaining);
  for (const grant of live) {
    const share = Math.min(grant.amount, toShare);
    used.set(grant.id, share);
    toShare -= share;
  }
  return used;
}

/** How much of each of the pool's grants was used (see grantUsage). */
async function poolGrantUsage(db: Database, tenantId: number): Promise<Map<number, number>> {
  const all = await db
    .select({ id: creditLedger.id, amount: creditLedger.amount, usageEndDate: creditLedger.usageEndDate, expiredAmount: expiry.amount })
    .from(creditLedger)
    .leftJoin(expiry, eq(expiry.expiresGrantId, creditLedger.id))
    .where(grantsOf(tenantId, { kind: 'pool' }));
  const [balance] = await db
    .select({ grantSum: creditBalances.grantSum, usageSum: creditBalances.usageSum })
    .from(creditBalances)
    .where(tenantPoolRow(tenantId));
  return grantUsage(
    all.map((grant) => ({ ...grant, amount: Number(grant.amount), expiredAmount: grant.expiredAmount === null ? null : Number(grant.expiredAmount) })),
    poolRemaining(balance),
  );
}

/**
 * An individual's plan credit is their quota for the month it starts in (domains/billing/payments sets
 * `credit_quota` from it), so what it used is their usage of that month, up to its amount.
 */
async function memberGrantUsage(db: Database, tenantId: number, memberId: number): Promise<(grant: { amount: number; month: string }) => number> {
  const months = await db
    .select({ period: creditBalances.period, usageSum: creditBalances.usageSum })
    .from(creditBalances)
    .where(and(eq(creditBalances.tenantId, tenantId), eq(creditBalances.scopeKind, 'member'), eq(creditBalances.scopeId, memberId)));
  const usage = new Map(months.map((row) => [row.period, -Number(row.usageSum)]));
  return ({ amount, month }) => Math.min(amount, Math.max(0, usage.get(month) ?? 0));
}

/**
 * Spec §3 Credit entries, newest first: the tenant pool's, or an individual's own. `withTransactions`
 * shows the purchase (price, receipt) — to administrators and to individuals, who pay for themselves.
 */
export async function listCreditEntries(
  db: Database,
  tenantId: number,
  page: PageRequest,
  { scope, withTransactions }: { scope: CreditEntryScope; withTransactions: boolean },
): Promise<Paginated<CreditEntry>> {
  const pool = scope.kind === 'pool' ? await poolGrantUsage(db, tenantId) : null;
  const ofMember = scope.kind === 'member' ? await memberGrantUsage(db, tenantId, scope.memberId) : null;
  const usedBy = (grant: typeof creditLedger.$inferSelect): number =>
    pool ? (pool.get(grant.id) ?? 0) : ofMember!({ amount: Number(grant.amount), month: (grant.usageStartDate ?? grant.createdAt.toISOString()).slice(0, 7) });
  return paginate(page, {
    count: async () => (await db.select({ n: count() }).from(creditLedger).where(grantsOf(tenantId, scope)))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      db
        .select({ grant: creditLedger, expiryId: expiry.id })
        .from(creditLedger)
        .leftJoin(expiry, eq(expiry.expiresGrantId, creditLedger.id))
        .where(grantsOf(tenantId, scope))
        .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
        .limit(limit)
        .offset(offset),
    toItems: (rows) =>
      rows.map(({ grant, expiryId }) => ({
        id: grant.id,
        quota: Number(grant.amount),
        usage: displayCredits(usedBy(grant)),
        created_at: grant.createdAt.toISOString(),
        usage_start_date: grant.usageStartDate,
        usage_end_date: grant.usageEndDate,
        ko_name: grant.koName,
        en_name: grant.enName,
        expired: expiryId !== null,
        transaction:
          withTransactions && grant.transactionPrice !== null
            ? {
                id: grant.id,
                price: grant.transactionPrice,
                currency: grant.transactionCurrency ?? 'KRW',
                receipt_url: grant.receiptUrl,
                created_at: grant.createdAt.toISOString(),
              }
            : null,
      })),
  });
}

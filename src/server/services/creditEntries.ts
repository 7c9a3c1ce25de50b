import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CreditEntry } from '../../shared/api/credits';
import { displayCredits } from '../../shared/domain/credits';
import type { Paginated } from '../../shared/api/common';
import type { Database } from '../db/client';
import { creditBalances, creditLedger } from '../db/schema';
import { type PageRequest, paginate } from './pagination';

const expiry = alias(creditLedger, 'expiry');

/** The tenant pool's own grants (not expiries): positive, naming neither member nor group. */
const poolGrants = (tenantId: number) =>
  and(eq(creditLedger.tenantId, tenantId), eq(creditLedger.kind, 'grant'), gt(creditLedger.amount, 0), isNull(creditLedger.memberId), isNull(creditLedger.memberGroupId));

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
 * as services/creditPeriods expires them), so the last to lapse is the last to be touched.
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

/**
 * Spec §3 Credit entries of a tenant's pool, newest first. `withTransactions` shows the purchase
 * (price, receipt) — to administrators and to individuals, who pay for themselves.
 */
export async function listCreditEntries(db: Database, tenantId: number, page: PageRequest, { withTransactions }: { withTransactions: boolean }): Promise<Paginated<CreditEntry>> {
  const all = await db
    .select({ id: creditLedger.id, amount: creditLedger.amount, usageEndDate: creditLedger.usageEndDate, expiredAmount: expiry.amount })
    .from(creditLedger)
    .leftJoin(expiry, eq(expiry.expiresGrantId, creditLedger.id))
    .where(poolGrants(tenantId));
  const [balance] = await db
    .select({ grantSum: creditBalances.grantSum, usageSum: creditBalances.usageSum })
    .from(creditBalances)
    .where(and(eq(creditBalances.tenantId, tenantId), eq(creditBalances.scopeKind, 'tenant'), eq(creditBalances.scopeId, tenantId), eq(creditBalances.period, 'all')));
  const used = grantUsage(
    all.map((grant) => ({ ...grant, amount: Number(grant.amount), expiredAmount: grant.expiredAmount === null ? null : Number(grant.expiredAmount) })),
    balance ? Number(balance.grantSum) + Number(balance.usageSum) : 0,
  );
  return paginate(page, {
    count: async () => (await db.select({ n: count() }).from(creditLedger).where(poolGrants(tenantId)))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      db
        .select({ grant: creditLedger, expiryId: expiry.id })
        .from(creditLedger)
        .leftJoin(expiry, eq(expiry.expiresGrantId, creditLedger.id))
        .where(poolGrants(tenantId))
        .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
        .limit(limit)
        .offset(offset),
    toItems: (rows) =>
      rows.map(({ grant, expiryId }) => ({
        id: grant.id,
        quota: Number(grant.amount),
        usage: displayCredits(used.get(grant.id) ?? 0),
        created_at: grant.createdAt.toISOString(),
        usage_start_date: grant.usageStartDate,
        usage_end_date: grant.usageEndDate,
        ko_name: grant.koName,
        en_name: grant.enName,
        expired: expiryId !== null,
        transaction:
          withTransactions && grant.transactionPrice !== null
            ? { id: grant.id, price: grant.transactionPrice, currency: grant.transactionCurrency ?? 'KRW', receipt_url: grant.receiptUrl, created_at: grant.createdAt.toISOString() }
            : null,
      })),
  });
}


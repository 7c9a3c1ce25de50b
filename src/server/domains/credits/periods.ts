import type { AppDeps } from '../../deps';
import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { clock, dayOf, periodBounds, periodOf } from '../../clock';
import type { Database, Queryable } from '../../db/client';
import { creditBalances, creditLedger, memberships, plans, tenants } from '../../db/schema';
import { appendToLedger, poolRemaining, tenantPoolRow } from './service';

/**
 * Credit periods (docs/decisions/0061-credit-periods-and-admin-credits.md). Member and group balances are keyed by
 * month, so their monthly quotas start again by themselves when the clock enters a new month: no
 * row is reset. What changes at a period's start is the tenant's pool: the plan's monthly credit is
 * granted for that month (valid until its last day), and every grant whose validity ended has its
 * unused rest taken back by an expiry. Both are ledger rows written by a job, never at request time.
 */

type Grant = Pick<typeof creditLedger.$inferSelect, 'id' | 'amount' | 'usageEndDate' | 'koName' | 'enName'>;

/** Grants are used up in the order they lapse (the earliest end first; grants without an end last). */
function byExpiry(a: Grant, b: Grant): number {
  if (a.usageEndDate !== b.usageEndDate) {
    if (a.usageEndDate === null) return 1;
    if (b.usageEndDate === null) return -1;
    return a.usageEndDate < b.usageEndDate ? -1 : 1;
  }
  return a.id - b.id;
}

const expiredGrantIds = sql`(select ${creditLedger.expiresGrantId} from ${creditLedger} where ${creditLedger.expiresGrantId} is not null)`;

/** The tenant's positive grants that have not expired yet, in the order they are used up. */
async function liveGrants(q: Queryable, tenantId: number): Promise<Grant[]> {
  const rows = await q
    .select({
      id: creditLedger.id,
      amount: creditLedger.amount,
      usageEndDate: creditLedger.usageEndDate,
      koName: creditLedger.koName,
      enName: creditLedger.enName,
    })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.tenantId, tenantId),
        eq(creditLedger.kind, 'grant'),
        gt(creditLedger.amount, 0),
        isNull(creditLedger.memberId),
        isNull(creditLedger.memberGroupId),
        sql`${creditLedger.id} not in ${expiredGrantIds}`,
      ),
    );
  return rows.sort(byExpiry);
}

/**
 * Takes back the unused rest of every grant whose last valid day is before `today`. Grants are used
 * up in the order they lapse, so a lapsing grant's unused rest is what the pool holds beyond the
 * grants that lapse after it, between 0 and its amount. Runs under the lock of the tenant's balance
 * row, which every send of the tenant also takes, so the remainder it reads cannot move meanwhile.
 */
async function expireLapsedGrants(tx: Queryable, tenantId: number, today: string): Promise<number> {
  const [balance] = await tx
    .select({ grantSum: creditBalances.grantSum, usageSum: creditBalances.usageSum })
    .from(creditBalances)
    .where(tenantPoolRow(tenantId))
    .for('update');
  let remaining = poolRemaining(balance);
  const grants = await liveGrants(tx, tenantId);
  let expired = 0;
  for (const [index, grant] of grants.entries()) {
    if (grant.usageEndDate === null || grant.usageEndDate >= today) continue;
    const lapsingLater = grants.slice(index + 1).reduce((sum, later) => sum + Number(later.amount), 0);
    const unused = Math.min(Number(grant.amount), Math.max(0, remaining - lapsingLater));
    await appendToLedger(
      tx,
      [{ tenantId, memberGroupId: null, memberId: null, kind: 'grant', amount: -unused, expiresGrantId: grant.id, koName: grant.koName, enName: grant.enName }],
      { skipDuplicates: true },
    );
    remaining -= unused;
    expired += 1;
  }
  return expired;
}

/**
 * A tenant whose plan is paid through a membership (domains/billing) gets the plan's credits with
 * each payment, so the monthly grant here is only for plans assigned without one (the operator's,
 * the demo seed's): never both.
 */
const paysThroughMembership = sql`exists (select 1 from ${memberships} where ${memberships.tenantId} = ${tenants.id} and ${memberships.memberId} is null and ${memberships.status} <> 'ended')`;

/** Grants the plan's monthly credit for the period of `now`, once per tenant and month. */
async function grantPlanCredit(tx: Queryable, tenantId: number, now: Date): Promise<boolean> {
  const [plan] = await tx
    .select({ credit: plans.credit, koName: plans.koName, enName: plans.enName })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(and(eq(tenants.id, tenantId), eq(tenants.planStatus, 'active'), sql`not ${paysThroughMembership}`));
  if (!plan || Number(plan.credit) <= 0) return false;
  const bounds = periodBounds(now);
  const { entries } = await appendToLedger(
    tx,
    [
      {
        tenantId,
        memberGroupId: null,
        memberId: null,
        kind: 'grant',
        amount: Number(plan.credit),
        planPeriod: periodOf(now),
        usageStartDate: bounds.start,
        usageEndDate: bounds.end,
        koName: `${plan.koName} 월간 크레딧`,
        enName: `${plan.enName} monthly credits`,
      },
    ],
    { skipDuplicates: true },
  );
  return entries.length > 0;
}

/** Opens the tenant's period of `clock.now()`: expires lapsed grants, then grants this month's plan credit. Idempotent. */
export async function renewTenantPeriod(db: Database, tenantId: number): Promise<{ expired: number; granted: boolean }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const expired = await expireLapsedGrants(tx, tenantId, dayOf(now));
    const granted = await grantPlanCredit(tx, tenantId, now);
    return { expired, granted };
  });
}

/** Tenants with something to do for the period of `clock.now()`: this month's plan credit not granted, or a lapsed grant not expired. */
export async function tenantsDue(db: Database): Promise<number[]> {
  const now = clock.now();
  const missingPlanCredit = db
    .select({ id: tenants.id })
    .from(tenants)
    .innerJoin(plans, eq(plans.id, tenants.planId))
    .where(
      and(
        eq(tenants.planStatus, 'active'),
        gt(plans.credit, 0),
        sql`not ${paysThroughMembership}`,
        sql`not exists (select 1 from ${creditLedger} where ${creditLedger.tenantId} = ${tenants.id} and ${creditLedger.planPeriod} = ${periodOf(now)})`,
      ),
    );
  const lapsed = db
    .selectDistinct({ id: creditLedger.tenantId })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.kind, 'grant'),
        gt(creditLedger.amount, 0),
        lt(creditLedger.usageEndDate, dayOf(now)),
        sql`${creditLedger.id} not in ${expiredGrantIds}`,
      ),
    );
  const rows = await missingPlanCredit.union(lapsed).orderBy(asc(sql`id`));
  return rows.map((row) => row.id);
}

export interface CreditPeriods {
  /** Enqueues one job per tenant that is due (several processes may do it at once: the jobs are idempotent). */
  enqueueDue(): Promise<number[]>;
}

/**
 * Defines the `credit-period` job (one per tenant) and returns what enqueues the due ones. The
 * server calls `enqueueDue` every CREDIT_PERIOD_CHECK_MINUTES; a check finds nothing to do except
 * in the first one after a month starts or a grant lapses.
 */
export function defineCreditPeriodJobs({ jobs, db }: Pick<AppDeps, 'jobs' | 'db'>): CreditPeriods {
  const renew = jobs.define('credit-period', z.object({}).strict(), async (_payload, { tenantId }) => renewTenantPeriod(db, tenantId));
  return {
    async enqueueDue() {
      const due = await tenantsDue(db);
      const taskIds: number[] = [];
      for (const tenantId of due) taskIds.push(await jobs.enqueue(renew, {}, { tenantId, memberId: null }));
      return taskIds;
    },
  };
}

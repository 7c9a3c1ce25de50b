import { type SQL, and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { creditsDepletedDetailsSchema } from '../../../shared/api/credits';
import type { CreditCheck } from '../../../shared/api/members';
import { type CreditScope, type DepletionKind, costInCredits, depletionKind, isCreditsDepleted } from '../../../shared/domain/credits';
import type { Queryable } from '../../db/client';
import { creditBalances, creditLedger, memberGroups, plans, tenants } from '../../db/schema';
import { AppError } from '../../errors';
import { isUniqueViolation } from '../../db/databaseErrors';
import { clock, periodOf } from '../../clock';
import { type LlmModelRow, type MemberRow, type TenantRow, fromJson, rowsOf } from '../../db/rows';

type GroupQuotas = Pick<typeof memberGroups.$inferSelect, 'id' | 'creditQuota' | 'memberCreditQuota'>;
type Scope = (typeof creditBalances.$inferSelect)['scopeKind'];

/** The tenant's balance row spans all time; group and member rows one month each. */
const ALL_TIME = 'all';
/** The tenant's pool: its balance row, the one every send of the tenant locks. */
export const tenantPoolRow = (tenantId: number) =>
  and(eq(creditBalances.tenantId, tenantId), eq(creditBalances.scopeKind, 'tenant'), eq(creditBalances.scopeId, tenantId), eq(creditBalances.period, ALL_TIME));

/** What the pool has left: its grants plus its (negative) usage; nothing without a balance row. */
export const poolRemaining = (balance: { grantSum: string | number; usageSum: string | number } | undefined) =>
  balance ? Number(balance.grantSum) + Number(balance.usageSum) : 0;

/**
 * The month of `clock.now()`, read once per ledger statement and also written as the `created_at` of
 * its ledger rows, so a ledger row and its balance change always fall in the same period.
 */
const ledgerClock = () => {
  const at = clock.now();
  return { at, period: periodOf(at) };
};

/**
 * A sum of ledger amounts at the ledger's precision (six decimals, `numeric(20, 6)`): adding them as
 * floating point leaves noise (a limit spent to exactly 0 would read 1e-15 and not count as spent).
 */
const ledgerAmount = (value: number) => Math.round(value * 1e6) / 1e6;

type BalanceRow = Pick<typeof creditBalances.$inferSelect, 'scopeKind' | 'scopeId' | 'usageSum' | 'grantSum' | 'grantCount'>;
type LedgerEntry = Pick<typeof creditLedger.$inferSelect, 'id' | 'amount'>;

/**
 * Runs `entries` (a statement writing ledger rows that returns their tenant_id, member_group_id,
 * member_id, kind and the amount to add) and moves the balances by them, in one statement, so the
 * ledger row and its balances commit together. Usage counts for the member, the group and the
 * tenant; only the tenant's own grants count. Migration 0003 computed the same sums from the whole
 * ledger. The upsert locks the touched balance rows until the transaction ends, always in the same
 * order (tenant, group, member, by id), so two transactions never wait for each other in a cycle.
 * `also` runs further statements within the same one (common table expressions, each ending in a
 * comma); `extra` adds columns to the one result row.
 */
async function writeLedger(q: Queryable, entries: SQL, { period, also = sql``, extra = sql`` }: { period: string; also?: SQL; extra?: SQL }) {
  const [row] = rowsOf<{ entries: unknown; balances: unknown; [column: string]: unknown }>(
    await q.execute(sql`
      with ${also} entry as (${entries}),
      moves as (
        select tenant_id, 'member'::credit_scope as scope_kind, member_id as scope_id, amount as usage_sum, 0::numeric as grant_sum, 0 as grant_count
          from entry where kind <> 'grant' and member_id is not null
        union all
        select tenant_id, 'group', member_group_id, amount, 0, 0 from entry where kind <> 'grant' and member_group_id is not null
        union all
        select tenant_id, 'tenant', tenant_id,
            case when kind <> 'grant' then amount else 0 end, case when kind = 'grant' then amount else 0 end, case when kind = 'grant' then 1 else 0 end
          from entry where kind <> 'grant' or (member_group_id is null and member_id is null)
      ),
      moved as (
        insert into ${creditBalances} (tenant_id, scope_kind, scope_id, period, usage_sum, grant_sum, grant_count)
        select tenant_id, scope_kind, scope_id, case when scope_kind = 'tenant' then ${ALL_TIME} else ${period}::text end,
            sum(usage_sum), sum(grant_sum), sum(grant_count)
          from moves group by tenant_id, scope_kind, scope_id order by tenant_id, scope_kind, scope_id
        on conflict (tenant_id, scope_kind, scope_id, period) do update set
          usage_sum = ${creditBalances}.usage_sum + excluded.usage_sum,
          grant_sum = ${creditBalances}.grant_sum + excluded.grant_sum,
          grant_count = ${creditBalances}.grant_count + excluded.grant_count
        returning scope_kind as "scopeKind", scope_id as "scopeId", usage_sum as "usageSum", grant_sum as "grantSum", grant_count as "grantCount"
      )
      select (select coalesce(json_agg(entry), '[]') from entry) as entries, (select coalesce(json_agg(moved), '[]') from moved) as balances ${extra}`),
  );
  if (!row) throw new Error('Ledger statement returned no row');
  return { entries: fromJson<LedgerEntry[]>(row.entries), balances: fromJson<BalanceRow[]>(row.balances).map(asNumbers), row };
}

const asNumbers = (row: BalanceRow): BalanceRow => ({
  ...row,
  usageSum: Number(row.usageSum),
  grantSum: Number(row.grantSum),
  grantCount: Number(row.grantCount),
});

/**
 * Appends ledger rows and moves the balances with them, in the caller's transaction. A value may be
 * SQL (the id of a row another common table expression of the statement writes, see `also`).
 */
export async function appendToLedger(
  q: Queryable,
  entries: PgInsertValue<typeof creditLedger>[],
  { also, extra, skipDuplicates = false }: { also?: SQL; extra?: SQL; skipDuplicates?: boolean } = {},
) {
  const { at, period } = ledgerClock();
  const values = q.insert(creditLedger).values(entries.map((entry) => ({ ...entry, createdAt: at })));
  // A duplicate (a second monthly grant or expiry of the same thing) inserts nothing and moves no balance.
  const insert = (skipDuplicates ? values.onConflictDoNothing() : values).returning({
    id: creditLedger.id,
    tenant_id: creditLedger.tenantId,
    member_group_id: creditLedger.memberGroupId,
    member_id: creditLedger.memberId,
    kind: creditLedger.kind,
    amount: creditLedger.amount,
  });
  return writeLedger(q, insert.getSQL(), { period, also, extra });
}

/** One limit a send is checked against: its quota for the period, what was used, what is left. */
export interface CreditLimit {
  scope: CreditScope;
  quota: number;
  used: number;
  remaining: number;
}

/**
 * The limits of a member: the monthly quota (member override, else the default group's per-member
 * quota), the group's own monthly quota, and the tenant's grants minus all usage; a scope without
 * a limit is left out.
 */
function creditLimits(member: MemberRow, group: GroupQuotas | undefined, balances: BalanceRow[]): CreditLimit[] {
  const find = (scopeKind: Scope, scopeId: number | null) => balances.find((row) => row.scopeKind === scopeKind && row.scopeId === scopeId);
  const limit = (scope: CreditScope, quota: number | null | undefined, usageSum: number): CreditLimit[] =>
    quota == null ? [] : [{ scope, quota, used: ledgerAmount(-usageSum), remaining: ledgerAmount(quota + usageSum) }];
  const tenant = find('tenant', member.tenantId);
  return [
    ...limit('member', member.creditQuota ?? group?.memberCreditQuota, find('member', member.id)?.usageSum ?? 0),
    ...(group ? limit('group', group.creditQuota, find('group', group.id)?.usageSum ?? 0) : []),
    ...(tenant && tenant.grantCount > 0 ? limit('tenant', tenant.grantSum, tenant.usageSum) : []),
  ];
}

/** Remaining credits of the member (their own or their group's, whichever is less) and of the tenant (null = no limit). */
export function toCreditCheck(limits: CreditLimit[]): CreditCheck {
  const own = limits.filter((limit) => limit.scope !== 'tenant').map((limit) => limit.remaining);
  return {
    remaining_credit: own.length ? Math.min(...own) : null,
    tenant: { remaining_credit: limits.find((limit) => limit.scope === 'tenant')?.remaining ?? null },
  };
}

/** The limit that runs out first: the tenant's when it is spent, else the smallest remainder. */
export function bindingLimit(limits: CreditLimit[]): CreditLimit | undefined {
  const tenant = limits.find((limit) => limit.scope === 'tenant');
  if (tenant && tenant.remaining <= 0) return tenant;
  return limits.reduce<CreditLimit | undefined>((least, limit) => (least && least.remaining <= limit.remaining ? least : limit), undefined);
}

/**
 * Who pays for a send: the sender, or the chatbot's creator (a visitor of a public chatbot has no
 * credits of their own; the send's `member` is then the creator). A Studio test chat is paid like
 * any other send, by the member who runs it (DESIGN §7).
 */
export interface Billing {
  billedToCreator?: boolean;
}

/** Whose balances a send's ledger rows move: the member's, their default group's and the tenant's. */
const ledgerOwner = (member: MemberRow) => ({ tenantId: member.tenantId, memberGroupId: member.defaultMemberGroupId, memberId: member.id });

/** The tenant's plan costs nothing (a tenant without a plan is not on a free plan). */
export async function onFreePlan(q: Queryable, tenantId: number): Promise<boolean> {
  const [row] = await q.select({ price: plans.krwMonthPrice }).from(tenants).innerJoin(plans, eq(plans.id, tenants.planId)).where(eq(tenants.id, tenantId));
  return row?.price === 0;
}

/** The message kind of a member's limit running out (spec §4). */
export async function depletionKindOf(q: Queryable, member: MemberRow, scope: CreditScope, { billedToCreator = false }: Billing = {}): Promise<DepletionKind> {
  return depletionKind({ scope, memberType: member.memberType, freePlan: await onFreePlan(q, member.tenantId), billedToCreator });
}

/** 402 `credits_depleted`, its details naming which of the five messages applies. */
async function depletedError(q: Queryable, member: MemberRow, limits: CreditLimit[], billing?: Billing): Promise<AppError> {
  const details: z.infer<typeof creditsDepletedDetailsSchema> = {
    depletion: await depletionKindOf(q, member, bindingLimit(limits)?.scope ?? 'member', billing),
  };
  return new AppError(402, 'credits_depleted', 'Your credits are depleted.', details);
}

async function defaultGroup(q: Queryable, member: MemberRow): Promise<GroupQuotas | undefined> {
  if (!member.defaultMemberGroupId) return undefined;
  const [group] = await q.select().from(memberGroups).where(eq(memberGroups.id, member.defaultMemberGroupId));
  return group;
}

/** Reads the member's, the default group's and the tenant's balance rows: a few rows, however long the ledger. */
export async function memberCreditLimits(q: Queryable, member: MemberRow): Promise<CreditLimit[]> {
  const group = await defaultGroup(q, member);
  const { period } = ledgerClock();
  const inThisMonth = (scopeKind: Scope, scopeId: number) =>
    and(eq(creditBalances.scopeKind, scopeKind), eq(creditBalances.scopeId, scopeId), eq(creditBalances.period, period));
  const balances = await q
    .select()
    .from(creditBalances)
    .where(
      and(
        eq(creditBalances.tenantId, member.tenantId),
        or(tenantPoolRow(member.tenantId), inThisMonth('member', member.id), group ? inThisMonth('group', group.id) : undefined),
      ),
    );
  return creditLimits(member, group, balances);
}

export async function creditCheck(q: Queryable, member: MemberRow): Promise<CreditCheck> {
  return toCreditCheck(await memberCreditLimits(q, member));
}

/** The unlimited low-cost model costs nothing and stays usable when the tenant's plan allows it. */
export function isFreeModel(model: LlmModelRow, tenant: TenantRow): boolean {
  return model.isUnlimited && tenant.isLowLlmFree;
}

export function messageCost(model: LlmModelRow, usage: { inputTokens: number; outputTokens: number }): number {
  return costInCredits(usage, { inputPer10k: model.inputCostPer10k, outputPer10k: model.outputCostPer10k });
}

/** 402 when the member has no credit left (for a send that reserves nothing, see reserveCredits). */
export async function assertCreditLeft(q: Queryable, member: MemberRow, billing?: Billing): Promise<void> {
  const limits = await memberCreditLimits(q, member);
  if (isCreditsDepleted(toCreditCheck(limits))) throw await depletedError(q, member, limits, billing);
}

/** A reservation as stored: its ledger id and the credits it holds back. */
export interface Reservation {
  id: number;
  amount: number;
}

/**
 * What the member may still spend as a SQL value, read in the reservation's own statement: the least
 * remainder of their monthly quota, their default group's and the tenant's pool (the limits
 * `creditLimits` computes), null when none applies.
 */
function availableCredits(member: MemberRow, period: string): SQL {
  const usage = (scopeKind: Scope, scopeId: SQL | number, inPeriod: string) =>
    sql`coalesce((select usage_sum from ${creditBalances} where tenant_id = ${member.tenantId} and scope_kind = ${scopeKind} and scope_id = ${scopeId} and period = ${inPeriod}), 0)`;
  return sql`(select least(
      coalesce(${member.creditQuota}::numeric, grp.member_credit_quota) + ${usage('member', member.id, period)},
      grp.credit_quota + ${usage('group', sql`grp.id`, period)},
      (select grant_sum + usage_sum from ${creditBalances}
        where tenant_id = ${member.tenantId} and scope_kind = 'tenant' and scope_id = ${member.tenantId} and period = ${ALL_TIME} and grant_count > 0)
    ) from (select 1) as one left join ${memberGroups} as grp on grp.id = ${member.defaultMemberGroupId})`;
}

/**
 * Reserves up to `wanted` credits for the answer `messageId`, never more than the member has left
 * (read in the same statement): a send whose full answer the member cannot afford reserves what
 * remains and asks the model for a shorter answer (domains/chat/service `openTurn`). Returns the
 * reservation with the limits as they stood before it (openTurn refuses a depleted send with them).
 * Concurrent sends read the remainder before each other's reservations land, so together they
 * overshoot a limit by less than one reservation: once it is spent, openTurn refuses
 * every further send. Run it as a statement of its own, not
 * inside a longer transaction: the balance upsert locks the member's, the group's and the tenant's
 * balance rows, which every send of the tenant needs, and a single statement holds them only while
 * it runs. Concurrent sends still see each other's reservations. `statement` adds further common
 * table expressions and result columns to the same statement (see writeLedger; the turn start
 * saves its messages with it), and `row` is that statement's one result row.
 */
export async function writeReservation(
  q: Queryable,
  member: MemberRow,
  wanted: number,
  messageId: number | SQL,
  statement: { also?: SQL; extra?: SQL } = {},
): Promise<{ reservation: Reservation; before: CreditLimit[]; row: Record<string, unknown> }> {
  const quotas = sql`, (select json_build_object('id', id, 'creditQuota', credit_quota, 'memberCreditQuota', member_credit_quota) from ${memberGroups} where id = ${member.defaultMemberGroupId}) as quotas`;
  const available = availableCredits(member, ledgerClock().period);
  const amount = sql`-(select case when available is null then ${wanted}::numeric else least(${wanted}::numeric, greatest(available, 0)) end from ${available} as limits(available))`;
  const { entries, balances, row } = await appendToLedger(q, [{ ...ledgerOwner(member), kind: 'reservation', amount, messageId }], {
    also: statement.also,
    extra: sql`${quotas} ${statement.extra ?? sql``}`,
  });
  const [entry] = entries;
  if (!entry) throw new Error('Reservation insert returned no row');
  const reserved = -Number(entry.amount);
  const group = row.quotas ? fromJson<GroupQuotas>(row.quotas) : undefined;
  const before = creditLimits(
    member,
    group,
    balances.map((balance) => ({ ...balance, usageSum: balance.usageSum + reserved })),
  );
  return { reservation: { id: entry.id, amount: reserved }, before, row };
}

/**
 * Releases a refused reservation in full and throws the 402 `credits_depleted` that names the limit
 * (`before`: the limits as they stood before it) that ran out.
 */
export async function refuseReservation(q: Queryable, member: MemberRow, reservation: Reservation, before: CreditLimit[], billing?: Billing): Promise<never> {
  await appendToLedger(q, [{ ...ledgerOwner(member), kind: 'settlement', amount: reservation.amount, reservationId: reservation.id }]);
  throw await depletedError(q, member, before, billing);
}

/**
 * Settles a reservation (`reserved` as writeReservation returned it) at the real cost, never more
 * than the reservation (DESIGN §7: what a send may cost is bounded by what it reserved): the
 * settlement row gives back the difference. It moves the balances the reservation moved (its
 * member and group are read from the reservation row, so a member whose default group changed
 * while the answer streamed is settled where they were charged). A reservation is settled once:
 * a second settlement fails on its unique index, and with it the whole statement. `also` runs
 * further statements in the same one (see writeLedger).
 */
export async function settleCredits(q: Queryable, reservationId: number, reserved: number, actual: number, also?: SQL): Promise<void> {
  const ofReservation = (column: SQL) => sql`(select ${column} from ${creditLedger} where id = ${reservationId})`;
  const owner = { tenantId: ofReservation(sql`tenant_id`), memberGroupId: ofReservation(sql`member_group_id`), memberId: ofReservation(sql`member_id`) };
  await appendToLedger(q, [{ ...owner, kind: 'settlement', amount: reserved - Math.min(actual, reserved), reservationId }], { also });
}

/** How far back the sweep looks for orphaned reservations: it runs every few seconds, so a day is plenty. */
const ORPHAN_LOOKBACK = sql`now() - interval '1 day'`;

/**
 * Releases in full the reservations whose answer is gone: deleted with its session, chatbot or
 * member while it streamed, so neither its own save nor the sweep of abandoned answers can settle
 * it, and it would hold the credits for good. Nothing of such an answer is kept, so nothing is
 * charged. A reservation refused for depleted credits lost its answer too, but was settled first.
 * Returns how many were released.
 */
export async function releaseOrphanedReservations(q: Queryable): Promise<number> {
  const settled = sql`exists (select 1 from ${creditLedger} settlement where settlement.reservation_id = ${creditLedger.id})`;
  const orphans = await q
    .select({ id: creditLedger.id, amount: creditLedger.amount })
    .from(creditLedger)
    .where(and(eq(creditLedger.kind, 'reservation'), isNull(creditLedger.messageId), gt(creditLedger.createdAt, ORPHAN_LOOKBACK), sql`not ${settled}`))
    .limit(100);
  let released = 0;
  for (const orphan of orphans) {
    try {
      await settleCredits(q, orphan.id, -orphan.amount, 0);
      released += 1;
    } catch (error) {
      // Settled meanwhile (another process's sweep, or the answer's own save just before its deletion).
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return released;
}

/**
 * Adds credits to the tenant's pool. `details` may carry a validity period (`usageStartDate`,
 * `usageEndDate`: the expiry job takes back what is unused after the end day) and the purchase's
 * transaction (price, currency, receipt).
 */
export async function grantTenantCredits(
  q: Queryable,
  tenantId: number,
  amount: number,
  details: Pick<
    typeof creditLedger.$inferInsert,
    'koName' | 'enName' | 'usageStartDate' | 'usageEndDate' | 'transactionPrice' | 'transactionCurrency' | 'receiptUrl'
  >,
): Promise<void> {
  await grantCredits(q, { tenantId, memberId: null, amount, ...details });
}

/**
 * A purchase's credits (a plan payment): a grant row carrying its validity period and transaction.
 * Without `memberId` it adds to the tenant's pool; with one (an individual's plan) it is the
 * member's purchase record, their monthly quota being set from the plan (domains/billing/payments).
 */
export async function grantCredits(
  q: Queryable,
  grant: Pick<
    typeof creditLedger.$inferInsert,
    'tenantId' | 'memberId' | 'amount' | 'koName' | 'enName' | 'usageStartDate' | 'usageEndDate' | 'transactionPrice' | 'transactionCurrency' | 'receiptUrl'
  >,
): Promise<void> {
  await appendToLedger(q, [{ ...grant, memberGroupId: null, kind: 'grant' }]);
}

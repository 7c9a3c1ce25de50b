import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { CreditCheck } from '../../shared/api/members';
import { costInCredits, isCreditsDepleted } from '../../shared/domain/credits';
import type { Queryable } from '../db/client';
import { creditBalances, creditLedger, llmModels, memberGroups, tenants } from '../db/schema';
import { AppError } from '../errors';
import type { MemberRow } from './auth';

type LlmModelRow = typeof llmModels.$inferSelect;
type MemberGroupRow = typeof memberGroups.$inferSelect;
type BalanceRow = typeof creditBalances.$inferSelect;
type LedgerEntry = Pick<typeof creditLedger.$inferInsert, 'tenantId' | 'memberGroupId' | 'memberId' | 'kind' | 'amount'>;
type Scope = BalanceRow['scopeKind'];

/** The tenant's balance row spans all time; group and member rows one month each. */
const ALL_TIME = 'all';
/**
 * The month of `now()`, which is also the `created_at` of every ledger row the transaction writes,
 * so a ledger row and its balance change always fall in the same period.
 */
const CURRENT_PERIOD = sql<string>`to_char(now(), 'YYYY-MM')`;

/**
 * Every transaction locks balance rows in this order (members, then groups, then the tenant, each
 * by id), so two transactions never wait for each other in a cycle.
 */
const SCOPE_ORDER: Record<Scope, number> = { member: 0, group: 1, tenant: 2 };

interface BalanceDelta {
  tenantId: number;
  scopeKind: Scope;
  scopeId: number;
  usageSum: number;
  grantSum: number;
  grantCount: number;
}

const isTenantGrant = (entry: LedgerEntry) => entry.kind === 'grant' && entry.memberGroupId == null && entry.memberId == null;

/** How ledger rows move the balances: usage counts for the member, the group and the tenant; only the tenant's own grants count. */
function balanceDeltas(entries: LedgerEntry[]): BalanceDelta[] {
  const deltas = new Map<string, BalanceDelta>();
  const add = (tenantId: number, scopeKind: Scope, scopeId: number, change: Partial<Pick<BalanceDelta, 'usageSum' | 'grantSum' | 'grantCount'>>) => {
    const key = `${tenantId}:${scopeKind}:${scopeId}`;
    const delta = deltas.get(key) ?? { tenantId, scopeKind, scopeId, usageSum: 0, grantSum: 0, grantCount: 0 };
    delta.usageSum += change.usageSum ?? 0;
    delta.grantSum += change.grantSum ?? 0;
    delta.grantCount += change.grantCount ?? 0;
    deltas.set(key, delta);
  };
  for (const entry of entries) {
    if (entry.kind === 'grant') {
      if (isTenantGrant(entry)) add(entry.tenantId, 'tenant', entry.tenantId, { grantSum: entry.amount, grantCount: 1 });
      continue;
    }
    if (entry.memberId != null) add(entry.tenantId, 'member', entry.memberId, { usageSum: entry.amount });
    if (entry.memberGroupId != null) add(entry.tenantId, 'group', entry.memberGroupId, { usageSum: entry.amount });
    add(entry.tenantId, 'tenant', entry.tenantId, { usageSum: entry.amount });
  }
  return [...deltas.values()].sort(
    (a, b) => a.tenantId - b.tenantId || SCOPE_ORDER[a.scopeKind] - SCOPE_ORDER[b.scopeKind] || a.scopeId - b.scopeId,
  );
}

/**
 * Adds ledger rows to the balances in one upsert, which also locks the touched balance rows until
 * the transaction ends; returns them as they are now.
 */
async function applyToBalances(q: Queryable, entries: LedgerEntry[]): Promise<BalanceRow[]> {
  const deltas = balanceDeltas(entries);
  if (deltas.length === 0) return [];
  return q
    .insert(creditBalances)
    .values(deltas.map((delta) => ({ ...delta, period: delta.scopeKind === 'tenant' ? ALL_TIME : CURRENT_PERIOD })))
    .onConflictDoUpdate({
      target: [creditBalances.tenantId, creditBalances.scopeKind, creditBalances.scopeId, creditBalances.period],
      set: {
        usageSum: sql`${creditBalances.usageSum} + excluded.usage_sum`,
        grantSum: sql`${creditBalances.grantSum} + excluded.grant_sum`,
        grantCount: sql`${creditBalances.grantCount} + excluded.grant_count`,
      },
    })
    .returning();
}

/**
 * Appends ledger rows and moves the balances with them, in the caller's transaction. The balances
 * move by the amounts as stored (rounded to the column's scale), so they stay exact sums.
 */
async function appendToLedger(q: Queryable, entries: (typeof creditLedger.$inferInsert)[]): Promise<{ rows: (LedgerEntry & { id: number })[]; balances: BalanceRow[] }> {
  const rows = await q.insert(creditLedger).values(entries).returning({
    id: creditLedger.id,
    tenantId: creditLedger.tenantId,
    memberGroupId: creditLedger.memberGroupId,
    memberId: creditLedger.memberId,
    kind: creditLedger.kind,
    amount: creditLedger.amount,
  });
  return { rows, balances: await applyToBalances(q, rows) };
}

/**
 * Remaining credits of the member and of the tenant (null = no limit). The tenant balance is its
 * grants minus all usage; the member balance is the monthly quota (member override, else the
 * default group's per-member quota) minus this month's usage, capped by the group's own monthly quota.
 */
function remainingCredits(member: MemberRow, group: MemberGroupRow | undefined, balances: BalanceRow[]): CreditCheck {
  const find = (scopeKind: Scope, scopeId: number | null) => balances.find((row) => row.scopeKind === scopeKind && row.scopeId === scopeId);
  const tenant = find('tenant', member.tenantId);
  const memberUsage = find('member', member.id)?.usageSum ?? 0;
  const groupUsage = group ? (find('group', group.id)?.usageSum ?? 0) : 0;
  const memberQuota = member.creditQuota ?? group?.memberCreditQuota ?? null;
  const limits = [
    memberQuota === null ? null : memberQuota + memberUsage,
    group?.creditQuota == null ? null : group.creditQuota + groupUsage,
  ].filter((value): value is number => value !== null);
  return {
    remaining_credit: limits.length ? Math.min(...limits) : null,
    tenant: { remaining_credit: tenant && tenant.grantCount > 0 ? tenant.grantSum + tenant.usageSum : null },
  };
}

async function defaultGroup(q: Queryable, member: MemberRow): Promise<MemberGroupRow | undefined> {
  if (!member.defaultMemberGroupId) return undefined;
  const [group] = await q.select().from(memberGroups).where(eq(memberGroups.id, member.defaultMemberGroupId));
  return group;
}

/** Reads the member's, the default group's and the tenant's balance rows: a few rows, however long the ledger. */
export async function creditCheck(q: Queryable, member: MemberRow): Promise<CreditCheck> {
  const group = await defaultGroup(q, member);
  const inThisMonth = (scopeKind: Scope, scopeId: number) =>
    and(eq(creditBalances.scopeKind, scopeKind), eq(creditBalances.scopeId, scopeId), eq(creditBalances.period, CURRENT_PERIOD));
  const balances = await q
    .select()
    .from(creditBalances)
    .where(
      and(
        eq(creditBalances.tenantId, member.tenantId),
        or(
          and(eq(creditBalances.scopeKind, 'tenant'), eq(creditBalances.scopeId, member.tenantId), eq(creditBalances.period, ALL_TIME)),
          inThisMonth('member', member.id),
          group ? inThisMonth('group', group.id) : undefined,
        ),
      ),
    );
  return remainingCredits(member, group, balances);
}

/** The unlimited low-cost model costs nothing and stays usable when the tenant's plan allows it. */
export function isFreeModel(model: LlmModelRow, tenant: typeof tenants.$inferSelect): boolean {
  return model.isUnlimited && tenant.isLowLlmFree;
}

export function messageCost(model: LlmModelRow, usage: { inputTokens: number; outputTokens: number }): number {
  return costInCredits(usage, { inputPer10k: model.inputCostPer10k, outputPer10k: model.outputCostPer10k });
}

export const creditsDepleted = () => new AppError(402, 'credits_depleted', 'Your credits are depleted.');

export async function isDepleted(q: Queryable, member: MemberRow): Promise<boolean> {
  return isCreditsDepleted(await creditCheck(q, member));
}

/**
 * Reserves `amount` credits for the answer `messageId` and returns the reservation (its ledger id and
 * the amount as stored), or
 * throws 402 when the member, their group or the tenant had no credit left before it. The balance
 * upsert locks only the member's, the group's and the tenant's balance rows, from here to the end
 * of the caller's transaction, so call it last: concurrent sends see each other's reservations, and
 * one that fails rolls back with its transaction.
 */
export async function reserveCredits(q: Queryable, member: MemberRow, amount: number, messageId: number): Promise<{ id: number; amount: number }> {
  const group = await defaultGroup(q, member);
  const { rows, balances } = await appendToLedger(q, [
    { tenantId: member.tenantId, memberGroupId: member.defaultMemberGroupId, memberId: member.id, kind: 'reservation', amount: -amount, messageId },
  ]);
  const [reservation] = rows;
  if (!reservation) throw new Error('Reservation insert returned no row');
  const before = balances.map((row) => ({ ...row, usageSum: row.usageSum - reservation.amount }));
  if (isCreditsDepleted(remainingCredits(member, group, before))) throw creditsDepleted();
  return { id: reservation.id, amount: -reservation.amount };
}

/**
 * Settles a reservation (`reserved` as reserveCredits returned it) at the real cost: the settlement
 * row gives back (or takes) the difference.
 * A reservation already released as abandoned (see releaseAbandonedReservations) gets its settlement
 * corrected instead, because an answer that outlived the limit still saves its real cost; the
 * balances then move by the difference to the release, which gave back the whole reservation.
 */
export async function settleCredits(q: Queryable, member: MemberRow, reservationId: number, reserved: number, actual: number): Promise<void> {
  const amount = reserved - actual;
  const entry = { tenantId: member.tenantId, memberGroupId: member.defaultMemberGroupId, memberId: member.id, kind: 'settlement' as const };
  const [row] = await q
    .insert(creditLedger)
    .values({ ...entry, amount, reservationId })
    .onConflictDoUpdate({ target: creditLedger.reservationId, set: { amount } })
    // xmax is set on a row this statement updated rather than inserted.
    .returning({ amount: creditLedger.amount, correctedRelease: sql<boolean>`xmax::text <> '0'` });
  if (!row) throw new Error('Settlement upsert returned no row');
  await applyToBalances(q, [{ ...entry, amount: row.correctedRelease ? row.amount - reserved : row.amount }]);
}

/**
 * Releases the whole reservation of answers abandoned by a crashed server: nothing of such an answer
 * was saved and no usage was metered, so the member is charged nothing for it, input included (what
 * the provider billed for the input is not known without its usage report).
 */
export async function releaseAbandonedReservations(q: Queryable, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const reservations = await q
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.kind, 'reservation'), inArray(creditLedger.messageId, messageIds)));
  if (reservations.length === 0) return;
  await appendToLedger(
    q,
    reservations.map((reservation) => ({
      tenantId: reservation.tenantId,
      memberGroupId: reservation.memberGroupId,
      memberId: reservation.memberId,
      kind: 'settlement' as const,
      amount: -reservation.amount,
      reservationId: reservation.id,
    })),
  );
}

export async function grantTenantCredits(q: Queryable, tenantId: number, amount: number, names: { koName: string; enName: string }): Promise<void> {
  await appendToLedger(q, [{ tenantId, memberGroupId: null, memberId: null, kind: 'grant', amount, ...names }]);
}

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CreditCheck } from '../../shared/api/members';
import { costInCredits, isCreditsDepleted } from '../../shared/domain/credits';
import type { Queryable } from '../db/client';
import { creditLedger, llmModels, memberGroups, tenants } from '../db/schema';
import type { MemberRow } from './auth';

type LlmModelRow = typeof llmModels.$inferSelect;

const isTenantGrant = sql`${creditLedger.kind} = 'grant' and ${creditLedger.memberGroupId} is null and ${creditLedger.memberId} is null`;
const isUsage = sql`${creditLedger.kind} <> 'grant'`;
const thisMonth = sql`${creditLedger.createdAt} >= date_trunc('month', now())`;

/**
 * Remaining credits of the member and of the tenant (null = no limit). The tenant balance is its
 * grants minus all usage; the member balance is the monthly quota (member override, else the
 * default group's per-member quota) minus this month's usage, capped by the group's own monthly quota.
 */
export async function creditCheck(q: Queryable, member: MemberRow): Promise<CreditCheck> {
  const groupId = member.defaultMemberGroupId;
  const [group] = groupId ? await q.select().from(memberGroups).where(eq(memberGroups.id, groupId)) : [];
  const [totals] = await q
    .select({
      tenantGrantCount: sql<number>`count(*) filter (where ${isTenantGrant})`.mapWith(Number),
      tenantGrants: sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${isTenantGrant}), 0)`.mapWith(Number),
      tenantUsage: sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${isUsage}), 0)`.mapWith(Number),
      memberMonthUsage: sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${isUsage} and ${thisMonth} and ${creditLedger.memberId} = ${member.id}), 0)`.mapWith(Number),
      groupMonthUsage: sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${isUsage} and ${thisMonth} and ${creditLedger.memberGroupId} = ${groupId ?? 0}), 0)`.mapWith(Number),
    })
    .from(creditLedger)
    .where(eq(creditLedger.tenantId, member.tenantId));
  if (!totals) throw new Error('Aggregate query returned no row');

  const tenantRemaining = totals.tenantGrantCount > 0 ? totals.tenantGrants + totals.tenantUsage : null;
  const memberQuota = member.creditQuota ?? group?.memberCreditQuota ?? null;
  const limits = [
    memberQuota === null ? null : memberQuota + totals.memberMonthUsage,
    group?.creditQuota == null ? null : group.creditQuota + totals.groupMonthUsage,
  ].filter((value): value is number => value !== null);
  return {
    remaining_credit: limits.length ? Math.min(...limits) : null,
    tenant: { remaining_credit: tenantRemaining },
  };
}

/** The unlimited low-cost model costs nothing and stays usable when the tenant's plan allows it. */
export function isFreeModel(model: LlmModelRow, tenant: typeof tenants.$inferSelect): boolean {
  return model.isUnlimited && tenant.isLowLlmFree;
}

export function messageCost(model: LlmModelRow, usage: { inputTokens: number; outputTokens: number }): number {
  return costInCredits(usage, { inputPer10k: model.inputCostPer10k, outputPer10k: model.outputCostPer10k });
}

export async function isDepleted(q: Queryable, member: MemberRow): Promise<boolean> {
  return isCreditsDepleted(await creditCheck(q, member));
}

/** Appends a reservation of `amount` credits for the answer `messageId`; returns its ledger id. */
export async function reserveCredits(q: Queryable, member: MemberRow, amount: number, messageId: number): Promise<number> {
  const [row] = await q
    .insert(creditLedger)
    .values({
      tenantId: member.tenantId,
      memberGroupId: member.defaultMemberGroupId,
      memberId: member.id,
      kind: 'reservation',
      amount: -amount,
      messageId,
    })
    .returning({ id: creditLedger.id });
  if (!row) throw new Error('Reservation insert returned no row');
  return row.id;
}

/**
 * Settles a reservation at the real cost: the settlement row gives back (or takes) the difference.
 * A reservation already released as abandoned (see releaseAbandonedReservations) gets its settlement
 * corrected instead, because an answer that outlived the limit still saves its real cost.
 */
export async function settleCredits(q: Queryable, member: MemberRow, reservationId: number, reserved: number, actual: number): Promise<void> {
  const amount = reserved - actual;
  await q
    .insert(creditLedger)
    .values({
      tenantId: member.tenantId,
      memberGroupId: member.defaultMemberGroupId,
      memberId: member.id,
      kind: 'settlement',
      amount,
      reservationId,
    })
    .onConflictDoUpdate({ target: creditLedger.reservationId, set: { amount } });
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
  await q
    .insert(creditLedger)
    .values(
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
  await q.insert(creditLedger).values({ tenantId, kind: 'grant', amount, ...names });
}

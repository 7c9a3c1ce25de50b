/**
 * Charges and their settlement: a paid payment starts or extends the membership and grants the plan's credits; a failed renewal retries or ends it. Payment history and receipts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Payment } from '../../../shared/api/billing';
import { RENEWAL_RETRY_DAYS } from '../../../shared/domain/billing';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { members, memberships, payments, plans, tenants } from '../../db/schema';
import { AppError } from '../../errors';
import { isUniqueViolation } from '../../db/databaseErrors';
import { type ChargeOutcome } from '../../payments/provider';
import { type AppLinkSettings } from '../../shared/appLinks';
import { grantCredits } from '../credits/service';
import { type PageRequest, paginate } from '../../shared/pagination';
import {
  type BillingDeps,
  type PlanRow,
  type MembershipRow,
  type PaymentRow,
  type PaymentMethodRow,
  type Owner,
  managingOwner,
  auditMembership,
  ownerMatch,
  isoDay,
  startOfDay,
  addDays,
  addMonth,
  toPlan,
  planName,
  providerError,
  customerOf,
  mailPayers,
  formatKrw,
} from './membership';

/** Charges a subscription or an upgrade at once; a declined card is 402 and changes nothing. */
export async function chargeNow(
  deps: BillingDeps,
  member: MemberRow,
  owner: Owner,
  plan: PlanRow,
  method: PaymentMethodRow,
  kind: 'subscribe' | 'upgrade',
  current: MembershipRow | null,
) {
  if (!method.billingKey || method.provider !== deps.payments.name) throw new AppError(422, 'payment_method_required', 'Register the card again.');
  const today = isoDay(deps.clock());
  // A first subscription's row waits as `ended` until its payment succeeds, so a decline leaves no membership behind.
  const membershipId =
    current?.id ??
    (
      await deps.db
        .insert(memberships)
        .values({
          tenantId: owner.tenantId,
          memberId: owner.memberId,
          planId: plan.id,
          paymentMethodId: method.id,
          price: plan.krwMonthPrice,
          status: 'ended',
          endedAt: deps.clock(),
        })
        .returning({ id: memberships.id })
    )[0]!.id;
  let payment: PaymentRow;
  try {
    payment = await createPayment(deps.db, {
      membershipId,
      owner,
      payer: member,
      plan,
      kind,
      orderId: `${kind}-${membershipId}-${randomUUID()}`,
      periodStart: today,
      provider: deps.payments.name,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another charge of this payer is under way (a second click, another administrator).
    if (!current) await deps.db.delete(memberships).where(eq(memberships.id, membershipId));
    throw new AppError(409, 'payment_in_progress', 'A payment for this plan is already in progress. Please wait a moment.');
  }
  const outcome = await deps.payments
    .charge({
      billingKey: method.billingKey,
      orderId: payment.orderId,
      orderName: plan.enName,
      amount: plan.krwMonthPrice,
      currency: 'KRW',
      customer: customerOf(member),
    })
    .catch(providerError);
  await deps.db.update(memberships).set({ paymentMethodId: method.id }).where(eq(memberships.id, membershipId));
  await settlePayment(deps, payment.orderId, outcome, member);
  if (outcome.status === 'failed') throw new AppError(402, 'card_declined', 'The card was declined.', { reason: outcome.reason });
}

const ownerKey = (owner: Pick<Owner, 'tenantId' | 'memberId'>) => (owner.memberId === null ? `tenant:${owner.tenantId}` : `member:${owner.memberId}`);

export async function createPayment(
  q: Queryable,
  p: {
    membershipId: number;
    owner: Owner;
    payer: MemberRow | null;
    plan: PlanRow;
    kind: PaymentRow['kind'];
    orderId: string;
    periodStart: string;
    provider: string;
  },
): Promise<PaymentRow> {
  const [row] = await q
    .insert(payments)
    .values({
      tenantId: p.owner.tenantId,
      membershipId: p.membershipId,
      memberId: p.payer?.id ?? null,
      planId: p.plan.id,
      kind: p.kind,
      amount: p.plan.krwMonthPrice,
      credit: p.plan.credit,
      provider: p.provider,
      orderId: p.orderId,
      ownerKey: ownerKey(p.owner),
      periodStart: p.periodStart,
      periodEnd: addMonth(p.periodStart),
    })
    .onConflictDoNothing({ target: payments.orderId })
    .returning();
  return row ?? (await q.select().from(payments).where(eq(payments.orderId, p.orderId)))[0]!;
}

/**
 * Applies a provider outcome to a pending payment, once: a paid one starts or extends the
 * membership and grants the plan's credits; a failed renewal schedules the next retry or ends the
 * membership. A payment already settled (a retried job, a replayed webhook) is left as it is.
 */
export async function settlePayment(deps: BillingDeps, orderId: string, outcome: ChargeOutcome, actor: MemberRow | null = null): Promise<void> {
  if (outcome.status === 'pending') return;
  await deps.db.transaction(async (tx) => {
    const [payment] = await tx
      .update(payments)
      .set(
        outcome.status === 'paid'
          ? {
              status: 'paid',
              providerPaymentId: outcome.providerPaymentId,
              receiptUrl: outcome.receiptUrl,
              paidAt: deps.clock(),
              receiptToken: outcome.receiptUrl ? null : randomBytes(18).toString('base64url'),
            }
          : { status: 'failed', failureReason: outcome.reason.slice(0, 500) },
      )
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'pending')))
      .returning();
    if (!payment) return;
    const [membership] = await tx.select().from(memberships).where(eq(memberships.id, payment.membershipId)).for('update');
    if (!membership) return;
    if (outcome.status === 'paid') {
      await applyPaid(deps, tx, payment, membership);
      await auditMembership(tx, actor, membership, {
        [payment.kind]: { plan_id: { from: membership.status === 'ended' ? null : membership.planId, to: payment.planId }, price: payment.amount },
      });
      return;
    }
    if (payment.kind === 'renewal') await renewalFailed(deps, tx, payment, membership);
  });
}

async function applyPaid(deps: BillingDeps, tx: Queryable, payment: PaymentRow, membership: MembershipRow) {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, payment.planId));
  const periodEnd = payment.periodEnd!;
  await tx
    .update(memberships)
    .set({
      planId: payment.planId,
      nextPlanId: null,
      price: payment.amount,
      status: 'active',
      endedAt: null,
      nextPaymentDate: periodEnd,
      renewalDueAt: startOfDay(periodEnd),
      failedAttempts: 0,
    })
    .where(eq(memberships.id, membership.id));
  const receiptUrl = payment.receiptUrl ?? (payment.receiptToken ? receiptLink(deps.links, payment.receiptToken) : null);
  if (receiptUrl !== payment.receiptUrl) await tx.update(payments).set({ receiptUrl }).where(eq(payments.id, payment.id));
  // The plan's credits for the period, through the ledger; an individual's are also their monthly quota.
  await grantCredits(tx, {
    tenantId: payment.tenantId,
    memberId: membership.memberId,
    amount: Number(payment.credit),
    koName: `${plan!.koName} 플랜 크레딧`,
    enName: `${plan!.enName} plan credits`,
    usageStartDate: payment.periodStart,
    usageEndDate: periodEnd,
    transactionPrice: payment.amount,
    transactionCurrency: payment.currency,
    receiptUrl,
  });
  if (membership.memberId === null) await tx.update(tenants).set({ planId: payment.planId, planStatus: 'active' }).where(eq(tenants.id, payment.tenantId));
  else await tx.update(members).set({ creditQuota: payment.credit }).where(eq(members.id, membership.memberId));
}

/** Our receipt page (demo provider): public by its unguessable token, like the provider's own. */
export const receiptLink = (links: AppLinkSettings, token: string): string => new URL(`/api/v1/receipts/${token}/`, links.publicUrl).toString();

async function renewalFailed(deps: BillingDeps, tx: Queryable, payment: PaymentRow, membership: MembershipRow): Promise<void> {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, payment.planId));
  const failed = membership.failedAttempts + 1;
  const retryIn = RENEWAL_RETRY_DAYS[failed - 1];
  if (retryIn === undefined) return endMembership(deps, tx, membership, plan!);
  const nextAttemptDate = addDays(membership.nextPaymentDate!, retryIn);
  await tx
    .update(memberships)
    .set({ failedAttempts: failed, renewalDueAt: startOfDay(nextAttemptDate) })
    .where(eq(memberships.id, membership.id));
  await mailPayers(deps, tx, membership, (member, plansUrl) => ({
    template: 'membershipPaymentFailed',
    to: member.email,
    language: member.language,
    data: { name: member.name, planName: planName(plan!, member.language), amount: formatKrw(payment.amount, member.language), nextAttemptDate, plansUrl },
  }));
}

export async function endMembership(deps: BillingDeps, tx: Queryable, membership: MembershipRow, plan: PlanRow): Promise<void> {
  await tx.update(memberships).set({ status: 'ended', endedAt: deps.clock(), renewalDueAt: null }).where(eq(memberships.id, membership.id));
  // The organisation keeps its plan row but it is no longer paid for; an individual falls back to their group's quota.
  if (membership.memberId === null) await tx.update(tenants).set({ planStatus: 'inactive' }).where(eq(tenants.id, membership.tenantId));
  else await tx.update(members).set({ creditQuota: null }).where(eq(members.id, membership.memberId));
  await mailPayers(deps, tx, membership, (member, plansUrl) => ({
    template: 'membershipEnded',
    to: member.email,
    language: member.language,
    data: { name: member.name, planName: planName(plan, member.language), plansUrl },
  }));
}

/** GET /membership/payments/: every payment of the memberships the caller manages, newest first. */
export async function listPayments(db: Database, member: MemberRow, page: PageRequest) {
  const owner = managingOwner(member);
  const where = and(eq(payments.tenantId, owner.tenantId), ownerMatch(owner));
  const rows = (window: { limit: number; offset: number }) =>
    db
      .select({ payment: payments, plan: plans })
      .from(payments)
      .innerJoin(memberships, eq(memberships.id, payments.membershipId))
      .innerJoin(plans, eq(plans.id, payments.planId))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(window.limit)
      .offset(window.offset);
  return paginate(page, {
    count: async () =>
      (await db.select({ n: count() }).from(payments).innerJoin(memberships, eq(memberships.id, payments.membershipId)).where(where))[0]?.n ?? 0,
    rows,
    toItems: (list): Payment[] =>
      list.map(({ payment, plan }) => ({
        id: payment.id,
        kind: payment.kind,
        status: payment.status,
        plan: toPlan(plan),
        price: payment.amount,
        currency: payment.currency,
        credit: Number(payment.credit),
        usage_start_date: payment.periodStart,
        usage_end_date: payment.periodEnd,
        receipt_url: payment.status === 'paid' ? payment.receiptUrl : null,
        failure_reason: payment.failureReason,
        created_at: payment.createdAt.toISOString(),
      })),
  });
}

/** The demo receipt page's data, by its token; null when there is none. */
export async function receiptByToken(db: Database, token: string) {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(token)) return null;
  const [row] = await db
    .select({ payment: payments, plan: plans, tenant: tenants })
    .from(payments)
    .innerJoin(plans, eq(plans.id, payments.planId))
    .innerJoin(tenants, eq(tenants.id, payments.tenantId))
    .where(and(eq(payments.receiptToken, token), eq(payments.status, 'paid')));
  return row ?? null;
}

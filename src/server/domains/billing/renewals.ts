/**
 * Monthly renewals: the memberships due and one membership's renewal charge (the `membership-renewal` job).
 */
import type { AppDeps } from '../../deps';
import { and, eq, inArray, lte } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { memberships, paymentMethods, plans } from '../../db/schema';
import { type ChargeOutcome } from '../../payments/provider';
import type { BillingDeps, Owner } from './membership';
import { createPayment, settlePayment, endMembership } from './payments';

/** Memberships whose renewal (payment date or retry) is due at `now`: ids to queue a renewal job for. */
export async function dueRenewals(db: Database, now: Date): Promise<{ id: number; tenantId: number; memberId: number | null }[]> {
  return db
    .select({ id: memberships.id, tenantId: memberships.tenantId, memberId: memberships.memberId })
    .from(memberships)
    .where(and(inArray(memberships.status, ['active', 'cancelled']), lte(memberships.renewalDueAt, now)));
}

/**
 * One membership's renewal (the job `membership-renewal`). Runs at least once, so every step is
 * idempotent: the row is re-read and skipped when no longer due; the charge's order id is fixed by
 * the payment date and the attempt, so a second run finds the first run's payment and asks the
 * provider what became of it instead of charging again.
 */
export async function renewMembership(deps: BillingDeps, membershipId: number): Promise<{ outcome: string }> {
  const now = deps.clock();
  const [membership] = await deps.db.select().from(memberships).where(eq(memberships.id, membershipId));
  if (!membership || membership.status === 'ended' || !membership.renewalDueAt || membership.renewalDueAt > now) return { outcome: 'not_due' };
  if (membership.status === 'cancelled') {
    await deps.db.transaction(async (tx) => {
      const [plan] = await tx.select().from(plans).where(eq(plans.id, membership.planId));
      await endMembership(deps, tx, membership, plan!);
    });
    return { outcome: 'ended' };
  }
  const plan = (
    await deps.db
      .select()
      .from(plans)
      .where(eq(plans.id, membership.nextPlanId ?? membership.planId))
  )[0]!;
  const [method] = membership.paymentMethodId ? await deps.db.select().from(paymentMethods).where(eq(paymentMethods.id, membership.paymentMethodId)) : [];
  const owner: Owner = {
    tenantId: membership.tenantId,
    scope: membership.memberId === null ? 'tenant' : 'member',
    memberId: membership.memberId,
    canManage: true,
  };
  const orderId = `renewal-${membership.id}-${membership.nextPaymentDate}-${membership.failedAttempts}`;
  const payment = await createPayment(deps.db, {
    membershipId: membership.id,
    owner,
    payer: null,
    plan,
    kind: 'renewal',
    orderId,
    periodStart: membership.nextPaymentDate!,
    provider: deps.payments.name,
  });
  if (payment.status !== 'pending') return { outcome: 'already_settled' };
  // Charging again with the same order id is safe: the provider answers with the first charge.
  const outcome: ChargeOutcome =
    method?.billingKey && method.provider === deps.payments.name
      ? await deps.payments.charge({
          billingKey: method.billingKey,
          orderId,
          orderName: plan.enName,
          amount: plan.krwMonthPrice,
          currency: 'KRW',
          customer: { id: `membership-${membership.id}`, email: '', name: plan.enName },
        })
      : { status: 'failed', reason: 'No usable payment method.' };
  await settlePayment(deps, orderId, outcome);
  return { outcome: outcome.status };
}

/** The renewal job and its sweep; define before the queue starts. */
export function defineRenewalJobs(deps: BillingDeps & Pick<AppDeps, 'jobs'>) {
  const { jobs } = deps;
  const renewal = jobs.define(
    'membership-renewal',
    z.object({ membershipId: z.number().int() }),
    async ({ membershipId }) => renewMembership(deps, membershipId),
    {
      retryLimit: 2,
      retryDelaySeconds: 60,
    },
  );
  return async function sweepRenewals(): Promise<number[]> {
    const { db, clock } = deps;
    const due = await dueRenewals(db, clock());
    const taskIds: number[] = [];
    for (const membership of due) {
      taskIds.push(await jobs.enqueue(renewal, { membershipId: membership.id }, { tenantId: membership.tenantId, memberId: membership.memberId }));
    }
    return taskIds;
  };
}

/**
 * The plans a tenant offers and a member's subscription to one: subscribe, change plan, cancel, resume.
 */
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { subscribeBodySchema } from '../../../shared/api/billing';
import type { MemberRow, TenantRow } from '../../db/rows';
import { memberships, paymentMethods, plans } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type ProviderResult } from '../../payments/provider';
import {
  type BillingDeps,
  type PlanRow,
  type PaymentMethodRow,
  type Owner,
  managingOwner,
  auditMembership,
  toPlan,
  planById,
  currentMembership,
  ownerPaymentMethods,
  membershipView,
  providerError,
  customerOf,
} from './membership';
import { chargeNow } from './payments';

export async function listPlans(deps: Pick<BillingDeps, 'db' | 'payments'>, tenant: TenantRow) {
  const rows = await deps.db.select().from(plans).where(eq(plans.tenantId, tenant.id)).orderBy(plans.krwMonthPrice, plans.id);
  return {
    items: rows.map(toPlan),
    provider: deps.payments.browser,
  };
}

/**
 * POST /member-billing-plans/{planId}/: registers the card the provider tokenised (a new payment
 * method, or replacing `payment_method_id`), then subscribes or changes plan with it.
 */
export async function registerCardAndSubscribe(
  deps: BillingDeps,
  tenant: TenantRow,
  member: MemberRow,
  planId: number,
  result: ProviderResult,
  replaceId?: number,
) {
  const owner = managingOwner(member);
  const plan = await planById(deps.db, tenant.id, planId);
  if (replaceId !== undefined && !(await ownerPaymentMethods(deps.db, owner)).some((m) => m.id === replaceId)) throw notFound();
  const card = await deps.payments.registerCard(result, customerOf(member)).catch(providerError);
  const values = {
    cardName: card.cardName,
    cardNumberMasked: card.cardNumberMasked,
    type: card.type,
    provider: deps.payments.name,
    billingKey: card.billingKey,
  };
  const [method] =
    replaceId !== undefined
      ? await deps.db
          .update(paymentMethods)
          .set(values)
          .where(and(eq(paymentMethods.tenantId, tenant.id), eq(paymentMethods.id, replaceId)))
          .returning()
      : await deps.db
          .insert(paymentMethods)
          .values({ tenantId: tenant.id, memberId: owner.memberId, ...values })
          .returning();
  const current = await currentMembership(deps.db, owner);
  if (current) await deps.db.update(memberships).set({ paymentMethodId: method!.id }).where(eq(memberships.id, current.id));
  // A new card for the plan already held just replaces the card.
  if (current && current.planId === plan.id && !current.nextPlanId) return membershipView(deps.db, tenant, member);
  return changePlan(deps, tenant, member, owner, plan, method!);
}

/** POST /member-billing-plans/{planId}/subscribe/ with a registered card, or a plan change. */
export async function subscribe(deps: BillingDeps, tenant: TenantRow, member: MemberRow, planId: number, body: z.output<typeof subscribeBodySchema>) {
  const owner = managingOwner(member);
  const plan = await planById(deps.db, tenant.id, planId);
  const methods = await ownerPaymentMethods(deps.db, owner);
  const current = await currentMembership(deps.db, owner);
  const methodId = body.payment_method_id ?? current?.paymentMethodId;
  const method = methods.find((m) => m.id === methodId);
  if (body.payment_method_id !== undefined && !method) throw notFound();
  if (!method) throw new AppError(422, 'payment_method_required', 'Register a card first.');
  return changePlan(deps, tenant, member, owner, plan, method);
}

/**
 * No membership: charge the plan and start one. A cheaper plan (or the same price): `next_plan`,
 * taking over at the next payment date. A dearer plan: an upgrade, charged in full now, starting a
 * new monthly period with the new plan's credits (no proration). The current plan again: undoes
 * a pending change; otherwise 409.
 */
async function changePlan(deps: BillingDeps, tenant: TenantRow, member: MemberRow, owner: Owner, plan: PlanRow, method: PaymentMethodRow) {
  const current = await currentMembership(deps.db, owner);
  if (!current) {
    await chargeNow(deps, member, owner, plan, method, 'subscribe', null);
  } else if (current.planId === plan.id) {
    if (!current.nextPlanId) throw new AppError(409, 'already_subscribed', 'You are already on this plan.');
    await deps.db.transaction(async (tx) => {
      await tx.update(memberships).set({ nextPlanId: null }).where(eq(memberships.id, current.id));
      await auditMembership(tx, member, current, { next_plan_id: { from: current.nextPlanId, to: null } });
    });
  } else if (plan.krwMonthPrice > current.price) {
    await chargeNow(deps, member, owner, plan, method, 'upgrade', current);
  } else {
    await deps.db.transaction(async (tx) => {
      await tx.update(memberships).set({ nextPlanId: plan.id }).where(eq(memberships.id, current.id));
      await auditMembership(tx, member, current, { next_plan_id: { from: current.nextPlanId, to: plan.id } });
    });
  }
  return membershipView(deps.db, tenant, member);
}

export async function cancelMembership(deps: BillingDeps, tenant: TenantRow, member: MemberRow) {
  const owner = managingOwner(member);
  const current = await currentMembership(deps.db, owner);
  if (!current) throw new AppError(404, 'no_membership', 'There is no membership to cancel.');
  if (current.status === 'cancelled') throw new AppError(409, 'already_cancelled', 'The membership is already cancelled.');
  // Ends at the next payment date: the renewal sweep ends it then instead of charging.
  await deps.db.transaction(async (tx) => {
    await tx.update(memberships).set({ status: 'cancelled', nextPlanId: null }).where(eq(memberships.id, current.id));
    await auditMembership(tx, member, current, { status: { from: current.status, to: 'cancelled' } });
  });
  return membershipView(deps.db, tenant, member);
}

export async function resumeMembership(deps: BillingDeps, tenant: TenantRow, member: MemberRow) {
  const owner = managingOwner(member);
  const current = await currentMembership(deps.db, owner);
  if (!current) throw new AppError(404, 'no_membership', 'There is no membership to resume.');
  if (current.status !== 'cancelled') throw new AppError(409, 'not_cancelled', 'The membership is not cancelled.');
  await deps.db.transaction(async (tx) => {
    await tx.update(memberships).set({ status: 'active' }).where(eq(memberships.id, current.id));
    await auditMembership(tx, member, current, { status: { from: 'cancelled', to: 'active' } });
  });
  return membershipView(deps.db, tenant, member);
}

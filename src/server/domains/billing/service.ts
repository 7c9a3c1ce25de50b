/**
 * Plans, membership and payments (spec §3, §4, §7; docs/decisions/0057-plans-and-membership.md). Who pays: an individual member pays for their own membership; an organisation's
 * membership is the tenant's, paid by its administrators, and its other members may only look.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type SQL, and, count, desc, eq, inArray, isNull, lte, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { billingPlanSchema, Membership, paymentMethodSchema, Payment, subscribeBodySchema } from '../../../shared/api/billing';
import { RENEWAL_RETRY_DAYS } from '../../../shared/domain/billing';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { members, memberships, paymentMethods, payments, paymentWebhookEvents, plans, tenants } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { isUniqueViolation } from '../../db/databaseErrors';
import type { MailOutbox, OutgoingMail } from '../../mail/outbox';
import { CardDeclinedError, type ChargeOutcome, InvalidPaymentResultError, type PaymentProvider, type ProviderResult, WebhookVerificationError } from '../../payments/provider';
import { type AppLinkSettings, appLink } from '../../shared/appLinks';
import { recordAudit } from '../auditLog/service';
import { grantCredits } from '../credits/service';
import { type PageRequest, paginate } from '../../shared/pagination';

export interface BillingDeps {
  db: Database;
  provider: PaymentProvider;
  mail: MailOutbox;
  /** Injectable so tests move time to the next payment date. */
  clock: () => Date;
  links: AppLinkSettings;
}

type PlanRow = typeof plans.$inferSelect;
type MembershipRow = typeof memberships.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;
type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** Whose membership a member sees: their own (individual) or the tenant's (organisation). */
interface Owner {
  tenantId: number;
  scope: 'member' | 'tenant';
  /** The membership's member_id: the individual, or null for the tenant's. */
  memberId: number | null;
  canManage: boolean;
}

export function ownerOf(member: MemberRow): Owner {
  return member.memberType === 'individual'
    ? { tenantId: member.tenantId, scope: 'member', memberId: member.id, canManage: true }
    : { tenantId: member.tenantId, scope: 'tenant', memberId: null, canManage: member.isAdmin };
}

function managingOwner(member: MemberRow): Owner {
  const owner = ownerOf(member);
  if (!owner.canManage) throw new AppError(403, 'billing_admin_only', "Your organisation's plan is managed by its administrator.");
  return owner;
}

/**
 * An organisation's membership is an administrator's write, so it is audited (same transaction).
 * AUDIT_ACTIONS has no billing action yet: the closest, `tenant_settings.update`, with target `membership`.
 */
async function auditMembership(tx: Queryable, actor: MemberRow | null, membership: Pick<MembershipRow, 'id' | 'tenantId' | 'memberId'>, changes: Record<string, unknown>) {
  if (!actor || membership.memberId !== null) return;
  await recordAudit(tx, { tenantId: membership.tenantId, actor, action: 'membership.update', targetType: 'membership', targetId: membership.id, changes });
}

const ownerMatch = (owner: Pick<Owner, 'memberId'>): SQL => (owner.memberId === null ? isNull(memberships.memberId) : eq(memberships.memberId, owner.memberId));

// Dates of memberships are calendar days (UTC), YYYY-MM-DD.
export const isoDay = (at: Date): string => at.toISOString().slice(0, 10);
const startOfDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
export function addDays(day: string, days: number): string {
  const at = startOfDay(day);
  at.setUTCDate(at.getUTCDate() + days);
  return isoDay(at);
}
/** The same day next month, or its last day when the month is shorter (31 January → 28 February). */
export function addMonth(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return isoDay(new Date(Date.UTC(year, month, Math.min(date, lastDay))));
}

const toPlan = (plan: PlanRow): z.infer<typeof billingPlanSchema> => ({
  id: plan.id,
  ko_name: plan.koName,
  en_name: plan.enName,
  krw_month_price: plan.krwMonthPrice,
  credit: Number(plan.credit),
});

const toPaymentMethod = (row: PaymentMethodRow): z.infer<typeof paymentMethodSchema> => ({
  id: row.id,
  card_name: row.cardName,
  card_number: row.cardNumberMasked,
  type: row.type,
});

const planName = (plan: PlanRow, language: string) => (language === 'ko' ? plan.koName : plan.enName);

async function planById(q: Queryable, tenantId: number, planId: number): Promise<PlanRow> {
  const [plan] = await q.select().from(plans).where(and(eq(plans.tenantId, tenantId), eq(plans.id, planId)));
  if (!plan) throw notFound();
  return plan;
}

/** The owner's membership that is not over (active or cancelled), if any. */
async function currentMembership(q: Queryable, owner: Owner, { lock = false } = {}): Promise<MembershipRow | undefined> {
  const query = q
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, owner.tenantId), ownerMatch(owner), ne(memberships.status, 'ended')))
    .orderBy(desc(memberships.id))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

async function ownerPaymentMethods(q: Queryable, owner: Owner): Promise<PaymentMethodRow[]> {
  return q
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.tenantId, owner.tenantId), owner.memberId === null ? isNull(paymentMethods.memberId) : eq(paymentMethods.memberId, owner.memberId)))
    .orderBy(desc(paymentMethods.id));
}

export async function listPlans(deps: Pick<BillingDeps, 'db' | 'provider'>, tenant: TenantRow) {
  const rows = await deps.db.select().from(plans).where(eq(plans.tenantId, tenant.id)).orderBy(plans.krwMonthPrice, plans.id);
  return {
    items: rows.map(toPlan),
    provider: deps.provider.browser,
  };
}

export async function membershipView(q: Queryable, tenant: TenantRow, member: MemberRow): Promise<Membership> {
  const owner = ownerOf(member);
  const row = await currentMembership(q, owner);
  const planIds = [row?.planId, row?.nextPlanId, owner.scope === 'tenant' ? tenant.planId : undefined].filter((id): id is number => typeof id === 'number');
  const planRows = planIds.length ? await q.select().from(plans).where(and(eq(plans.tenantId, tenant.id), inArray(plans.id, planIds))) : [];
  const plan = (id: number | null | undefined) => planRows.find((p) => p.id === id);
  const methods = owner.canManage ? await ownerPaymentMethods(q, owner) : [];
  const method = row?.paymentMethodId ? (methods.find((m) => m.id === row.paymentMethodId) ?? (await q.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)))[0]) : undefined;
  const current = row ? plan(row.planId) : owner.scope === 'tenant' ? plan(tenant.planId) : undefined;
  return {
    scope: owner.scope,
    can_manage: owner.canManage,
    current_plan: current ? toPlan(current) : null,
    membership:
      row && plan(row.planId)
        ? {
            id: row.id,
            plan: toPlan(plan(row.planId)!),
            next_plan: plan(row.nextPlanId) ? toPlan(plan(row.nextPlanId)!) : null,
            // Organisation members see the plan, not the administrators' card.
            payment_method: method && owner.canManage ? toPaymentMethod(method) : null,
            price: row.price,
            currency: row.currency,
            status: row.status,
            next_payment_date: row.nextPaymentDate,
            failed_attempts: row.failedAttempts,
            next_attempt_at: row.status === 'active' && row.renewalDueAt ? row.renewalDueAt.toISOString() : null,
          }
        : null,
    payment_methods: methods.map(toPaymentMethod),
  };
}

function providerError(error: unknown): never {
  if (error instanceof CardDeclinedError) throw new AppError(402, 'card_declined', 'The card was declined.', { reason: error.message });
  if (error instanceof InvalidPaymentResultError) throw new AppError(400, 'invalid_payment_result', error.message);
  if (error instanceof AppError) throw error;
  throw new AppError(502, 'payment_provider_unavailable', 'The card company could not be reached. Please try again later.');
}

/**
 * POST /member-billing-plans/{planId}/: registers the card the provider tokenised (a new payment
 * method, or replacing `payment_method_id`), then subscribes or changes plan with it.
 */
export async function registerCardAndSubscribe(deps: BillingDeps, tenant: TenantRow, member: MemberRow, planId: number, result: ProviderResult, replaceId?: number) {
  const owner = managingOwner(member);
  const plan = await planById(deps.db, tenant.id, planId);
  if (replaceId !== undefined && !(await ownerPaymentMethods(deps.db, owner)).some((m) => m.id === replaceId)) throw notFound();
  const card = await deps.provider.registerCard(result, customerOf(member)).catch(providerError);
  const values = { cardName: card.cardName, cardNumberMasked: card.cardNumberMasked, type: card.type, provider: deps.provider.name, billingKey: card.billingKey };
  const [method] =
    replaceId !== undefined
      ? await deps.db.update(paymentMethods).set(values).where(and(eq(paymentMethods.tenantId, tenant.id), eq(paymentMethods.id, replaceId))).returning()
      : await deps.db.insert(paymentMethods).values({ tenantId: tenant.id, memberId: owner.memberId, ...values }).returning();
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

const customerOf = (member: MemberRow) => ({ id: `member-${member.tenantId}-${member.id}`, email: member.email, name: member.name });

/** Charges a subscription or an upgrade at once; a declined card is 402 and changes nothing. */
async function chargeNow(deps: BillingDeps, member: MemberRow, owner: Owner, plan: PlanRow, method: PaymentMethodRow, kind: 'subscribe' | 'upgrade', current: MembershipRow | null) {
  if (!method.billingKey || method.provider !== deps.provider.name) throw new AppError(422, 'payment_method_required', 'Register the card again.');
  const today = isoDay(deps.clock());
  // A first subscription's row waits as `ended` until its payment succeeds, so a decline leaves no membership behind.
  const membershipId =
    current?.id ??
    (
      await deps.db
        .insert(memberships)
        .values({ tenantId: owner.tenantId, memberId: owner.memberId, planId: plan.id, paymentMethodId: method.id, price: plan.krwMonthPrice, status: 'ended', endedAt: deps.clock() })
        .returning({ id: memberships.id })
    )[0]!.id;
  let payment: PaymentRow;
  try {
    payment = await createPayment(deps.db, { membershipId, owner, payer: member, plan, kind, orderId: `${kind}-${membershipId}-${randomUUID()}`, periodStart: today, provider: deps.provider.name });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another charge of this payer is under way (a second click, another administrator).
    if (!current) await deps.db.delete(memberships).where(eq(memberships.id, membershipId));
    throw new AppError(409, 'payment_in_progress', 'A payment for this plan is already in progress. Please wait a moment.');
  }
  const outcome = await deps.provider
    .charge({ billingKey: method.billingKey, orderId: payment.orderId, orderName: plan.enName, amount: plan.krwMonthPrice, currency: 'KRW', customer: customerOf(member) })
    .catch(providerError);
  await deps.db.update(memberships).set({ paymentMethodId: method.id }).where(eq(memberships.id, membershipId));
  await settlePayment(deps, payment.orderId, outcome, member);
  if (outcome.status === 'failed') throw new AppError(402, 'card_declined', 'The card was declined.', { reason: outcome.reason });
}

const ownerKey = (owner: Pick<Owner, 'tenantId' | 'memberId'>) => (owner.memberId === null ? `tenant:${owner.tenantId}` : `member:${owner.memberId}`);

async function createPayment(
  q: Queryable,
  p: { membershipId: number; owner: Owner; payer: MemberRow | null; plan: PlanRow; kind: PaymentRow['kind']; orderId: string; periodStart: string; provider: string },
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
          ? { status: 'paid', providerPaymentId: outcome.providerPaymentId, receiptUrl: outcome.receiptUrl, paidAt: deps.clock(), receiptToken: outcome.receiptUrl ? null : randomBytes(18).toString('base64url') }
          : { status: 'failed', failureReason: outcome.reason.slice(0, 500) },
      )
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'pending')))
      .returning();
    if (!payment) return;
    const [membership] = await tx.select().from(memberships).where(eq(memberships.id, payment.membershipId)).for('update');
    if (!membership) return;
    if (outcome.status === 'paid') {
      await applyPaid(deps, tx, payment, membership);
      await auditMembership(tx, actor, membership, { [payment.kind]: { plan_id: { from: membership.status === 'ended' ? null : membership.planId, to: payment.planId }, price: payment.amount } });
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

/** Who hears about a membership: the individual, or every active administrator of the tenant. */
async function payers(q: Queryable, membership: MembershipRow): Promise<MemberRow[]> {
  if (membership.memberId !== null) return q.select().from(members).where(eq(members.id, membership.memberId));
  return q
    .select()
    .from(members)
    .where(and(eq(members.tenantId, membership.tenantId), eq(members.isAdmin, true), eq(members.status, 'approved')));
}

/** Writes a mail to each payer in `tx`, the transaction that decided it; the mail outbox sends them. */
async function mailPayers(deps: BillingDeps, tx: Queryable, membership: MembershipRow, mail: (member: MemberRow, plansUrl: string) => OutgoingMail): Promise<void> {
  const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, membership.tenantId));
  const plansUrl = appLink(deps.links, tenant!, '/dashboard/plans');
  await deps.mail.queue(tx, membership.tenantId, (await payers(tx, membership)).map((member) => mail(member, plansUrl)));
}

const formatKrw = (amount: number, language: string) => new Intl.NumberFormat(language, { style: 'currency', currency: 'KRW' }).format(amount);

async function renewalFailed(deps: BillingDeps, tx: Queryable, payment: PaymentRow, membership: MembershipRow): Promise<void> {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, payment.planId));
  const failed = membership.failedAttempts + 1;
  const retryIn = RENEWAL_RETRY_DAYS[failed - 1];
  if (retryIn === undefined) return endMembership(deps, tx, membership, plan!);
  const nextAttemptDate = addDays(membership.nextPaymentDate!, retryIn);
  await tx.update(memberships).set({ failedAttempts: failed, renewalDueAt: startOfDay(nextAttemptDate) }).where(eq(memberships.id, membership.id));
  await mailPayers(deps, tx, membership, (member, plansUrl) => ({
    template: 'membershipPaymentFailed',
    to: member.email,
    language: member.language,
    data: { name: member.name, planName: planName(plan!, member.language), amount: formatKrw(payment.amount, member.language), nextAttemptDate, plansUrl },
  }));
}

async function endMembership(deps: BillingDeps, tx: Queryable, membership: MembershipRow, plan: PlanRow): Promise<void> {
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
    count: async () => (await db.select({ n: count() }).from(payments).innerJoin(memberships, eq(memberships.id, payments.membershipId)).where(where))[0]?.n ?? 0,
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

// ---- renewals -------------------------------------------------------------------------------

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
  const plan = (await deps.db.select().from(plans).where(eq(plans.id, membership.nextPlanId ?? membership.planId)))[0]!;
  const [method] = membership.paymentMethodId ? await deps.db.select().from(paymentMethods).where(eq(paymentMethods.id, membership.paymentMethodId)) : [];
  const owner: Owner = { tenantId: membership.tenantId, scope: membership.memberId === null ? 'tenant' : 'member', memberId: membership.memberId, canManage: true };
  const orderId = `renewal-${membership.id}-${membership.nextPaymentDate}-${membership.failedAttempts}`;
  const payment = await createPayment(deps.db, { membershipId: membership.id, owner, payer: null, plan, kind: 'renewal', orderId, periodStart: membership.nextPaymentDate!, provider: deps.provider.name });
  if (payment.status !== 'pending') return { outcome: 'already_settled' };
  // Charging again with the same order id is safe: the provider answers with the first charge.
  const outcome: ChargeOutcome =
    method?.billingKey && method.provider === deps.provider.name
      ? await deps.provider.charge({ billingKey: method.billingKey, orderId, orderName: plan.enName, amount: plan.krwMonthPrice, currency: 'KRW', customer: { id: `membership-${membership.id}`, email: '', name: plan.enName } })
      : { status: 'failed', reason: 'No usable payment method.' };
  await settlePayment(deps, orderId, outcome);
  return { outcome: outcome.status };
}

// ---- webhooks ---------------------------------------------------------------------------------

/**
 * A provider webhook: the signature is checked on the raw body, the delivery id is recorded once
 * (a replay answers `replayed` and does nothing), and the payment it names is looked up at the
 * provider, never taken from the body, then settled like any other outcome.
 */
export async function handleWebhook(deps: BillingDeps, rawBody: string, headers: Record<string, string | string[] | undefined>): Promise<{ replayed: boolean }> {
  let delivery;
  try {
    delivery = deps.provider.verifyWebhook(rawBody, headers, deps.clock());
  } catch (error) {
    if (error instanceof WebhookVerificationError || error instanceof SyntaxError) throw new AppError(401, 'invalid_signature', 'The webhook signature is not valid.');
    throw error;
  }
  const [fresh] = await deps.db
    .insert(paymentWebhookEvents)
    .values({ provider: deps.provider.name, eventId: delivery.eventId })
    .onConflictDoNothing()
    .returning();
  if (!fresh) return { replayed: true };
  try {
    if (delivery.orderId) {
      const [payment] = await deps.db.select().from(payments).where(eq(payments.orderId, delivery.orderId));
      if (payment?.status === 'pending') {
        const outcome = await deps.provider.lookup(delivery.orderId);
        if (outcome) await settlePayment(deps, delivery.orderId, outcome);
      }
    }
  } catch (error) {
    // Not handled: forget the delivery so the provider's redelivery is acted on.
    await deps.db.delete(paymentWebhookEvents).where(and(eq(paymentWebhookEvents.provider, deps.provider.name), eq(paymentWebhookEvents.eventId, delivery.eventId)));
    throw error;
  }
  return { replayed: false };
}

/**
 * Whose membership a member sees and manages, its plan and card, and the mail its payers get: what plans, payments and renewals share (spec §3, §4, §7; docs/decisions/0057-plans-and-membership.md).
 * An individual member pays for their own membership; an organisation's membership is the tenant's, paid by its administrators, and its other members may only look.
 */
import { type SQL, and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { billingPlanSchema, Membership, paymentMethodSchema } from '../../../shared/api/billing';
import type { Queryable } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { members, memberships, paymentMethods, payments, plans, tenants } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import type { OutgoingMail } from '../../mail/outbox';
import { CardDeclinedError, InvalidPaymentResultError } from '../../payments/provider';
import { appLink } from '../../shared/appLinks';
import { recordAudit } from '../auditLog/service';
import type { AppDeps } from '../../deps';

/** What billing uses of the container; `clock` is the server clock, which tests move to the next payment date. */
export type BillingDeps = Pick<AppDeps, 'db' | 'payments' | 'mail' | 'clock' | 'links'>;

export type PlanRow = typeof plans.$inferSelect;

export type MembershipRow = typeof memberships.$inferSelect;

export type PaymentRow = typeof payments.$inferSelect;

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** Whose membership a member sees: their own (individual) or the tenant's (organisation). */
export interface Owner {
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

export function managingOwner(member: MemberRow): Owner {
  const owner = ownerOf(member);
  if (!owner.canManage) throw new AppError(403, 'billing_admin_only', "Your organisation's plan is managed by its administrator.");
  return owner;
}

/**
 * An organisation's membership is an administrator's write, so it is audited (same transaction).
 * AUDIT_ACTIONS has no billing action yet: the closest, `tenant_settings.update`, with target `membership`.
 */
export async function auditMembership(
  tx: Queryable,
  actor: MemberRow | null,
  membership: Pick<MembershipRow, 'id' | 'tenantId' | 'memberId'>,
  changes: Record<string, unknown>,
) {
  if (!actor || membership.memberId !== null) return;
  await recordAudit(tx, { tenantId: membership.tenantId, actor, action: 'membership.update', targetType: 'membership', targetId: membership.id, changes });
}

export const ownerMatch = (owner: Pick<Owner, 'memberId'>): SQL =>
  owner.memberId === null ? isNull(memberships.memberId) : eq(memberships.memberId, owner.memberId);

// Dates of memberships are calendar days (UTC), YYYY-MM-DD.
export const isoDay = (at: Date): string => at.toISOString().slice(0, 10);

export const startOfDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

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

export const toPlan = (plan: PlanRow): z.infer<typeof billingPlanSchema> => ({
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

export const planName = (plan: PlanRow, language: string) => (language === 'ko' ? plan.koName : plan.enName);

export async function planById(q: Queryable, tenantId: number, planId: number): Promise<PlanRow> {
  const [plan] = await q
    .select()
    .from(plans)
    .where(and(eq(plans.tenantId, tenantId), eq(plans.id, planId)));
  if (!plan) throw notFound();
  return plan;
}

/** The owner's membership that is not over (active or cancelled), if any. */
export async function currentMembership(q: Queryable, owner: Owner, { lock = false } = {}): Promise<MembershipRow | undefined> {
  const query = q
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, owner.tenantId), ownerMatch(owner), ne(memberships.status, 'ended')))
    .orderBy(desc(memberships.id))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function ownerPaymentMethods(q: Queryable, owner: Owner): Promise<PaymentMethodRow[]> {
  return q
    .select()
    .from(paymentMethods)
    .where(
      and(eq(paymentMethods.tenantId, owner.tenantId), owner.memberId === null ? isNull(paymentMethods.memberId) : eq(paymentMethods.memberId, owner.memberId)),
    )
    .orderBy(desc(paymentMethods.id));
}

export async function membershipView(q: Queryable, tenant: TenantRow, member: MemberRow): Promise<Membership> {
  const owner = ownerOf(member);
  const row = await currentMembership(q, owner);
  const planIds = [row?.planId, row?.nextPlanId, owner.scope === 'tenant' ? tenant.planId : undefined].filter((id): id is number => typeof id === 'number');
  const planRows = planIds.length
    ? await q
        .select()
        .from(plans)
        .where(and(eq(plans.tenantId, tenant.id), inArray(plans.id, planIds)))
    : [];
  const plan = (id: number | null | undefined) => planRows.find((p) => p.id === id);
  const methods = owner.canManage ? await ownerPaymentMethods(q, owner) : [];
  const method = row?.paymentMethodId
    ? (methods.find((m) => m.id === row.paymentMethodId) ?? (await q.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)))[0])
    : undefined;
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

export function providerError(error: unknown): never {
  if (error instanceof CardDeclinedError) throw new AppError(402, 'card_declined', 'The card was declined.', { reason: error.message });
  if (error instanceof InvalidPaymentResultError) throw new AppError(400, 'invalid_payment_result', error.message);
  if (error instanceof AppError) throw error;
  throw new AppError(502, 'payment_provider_unavailable', 'The card company could not be reached. Please try again later.');
}

export const customerOf = (member: MemberRow) => ({ id: `member-${member.tenantId}-${member.id}`, email: member.email, name: member.name });

/** Who hears about a membership: the individual, or every active administrator of the tenant. */
async function payers(q: Queryable, membership: MembershipRow): Promise<MemberRow[]> {
  if (membership.memberId !== null) return q.select().from(members).where(eq(members.id, membership.memberId));
  return q
    .select()
    .from(members)
    .where(and(eq(members.tenantId, membership.tenantId), eq(members.isAdmin, true), eq(members.status, 'approved')));
}

/** Writes a mail to each payer in `tx`, the transaction that decided it; the mail outbox sends them. */
export async function mailPayers(
  deps: BillingDeps,
  tx: Queryable,
  membership: MembershipRow,
  mail: (member: MemberRow, plansUrl: string) => OutgoingMail,
): Promise<void> {
  const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, membership.tenantId));
  const plansUrl = appLink(deps.links, tenant!, '/dashboard/plans');
  await deps.mail.queue(
    tx,
    membership.tenantId,
    (await payers(tx, membership)).map((member) => mail(member, plansUrl)),
  );
}

export const formatKrw = (amount: number, language: string) => new Intl.NumberFormat(language, { style: 'currency', currency: 'KRW' }).format(amount);

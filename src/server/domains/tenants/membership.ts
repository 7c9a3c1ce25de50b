import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { TenantRow } from '../../db/rows';
import { memberships, plans } from '../../db/schema';
import { memberCountCheck } from '../signup/service';

type PlanRow = typeof plans.$inferSelect;

const toPlan = (plan: PlanRow | undefined) =>
  plan
    ? {
        id: plan.id,
        ko_name: plan.koName,
        en_name: plan.enName,
        krw_month_price: plan.krwMonthPrice,
        credit: plan.credit,
        member_limit: plan.memberLimit,
        invitation_limit: plan.invitationLimit,
      }
    : null;

async function planOf(db: Database, tenant: TenantRow, id: number | null | undefined): Promise<PlanRow | undefined> {
  if (!id) return undefined;
  const [plan] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.tenantId, tenant.id), eq(plans.id, id)));
  return plan;
}

/**
 * GET /tenants/membership/: the tenant's plan and its subscription. The tenant's own subscription
 * is the `memberships` row without a member (members' rows are individual plans, `GET /membership/`).
 */
export async function tenantMembership(db: Database, tenant: TenantRow) {
  const [subscription] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenant.id), isNull(memberships.memberId)))
    .orderBy(desc(memberships.createdAt))
    .limit(1);
  const seats = await memberCountCheck(db, tenant);
  return {
    plan: toPlan(await planOf(db, tenant, tenant.planId)),
    plan_status: tenant.planStatus,
    next_plan: toPlan(await planOf(db, tenant, subscription?.nextPlanId)),
    membership_status: subscription?.status ?? null,
    price: subscription?.price ?? null,
    currency: subscription?.currency ?? null,
    next_payment_date: subscription?.nextPaymentDate ?? null,
    member_count: seats.member_count,
  };
}

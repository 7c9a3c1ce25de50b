import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { MemberUsage } from '../../../shared/api/credits';
import { isCreditsDepleted } from '../../../shared/domain/credits';
import type { Database } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { clock, periodBounds } from '../../clock';
import { usageRecords } from '../../db/schema';
import { bindingLimit, depletionKindOf, memberCreditLimits, toCreditCheck } from './service';

/**
 * A member's credits this month: the limit that runs out first with its quota, usage and share
 * used, and the member's paid answers this month per model, whose average cost estimates how many
 * messages are left (spec §4 warnings).
 */
export async function memberUsage(db: Database, member: MemberRow): Promise<MemberUsage> {
  const limits = await memberCreditLimits(db, member);
  const limit = bindingLimit(limits);
  // The month the member and group balances count, by the same clock as the ledger's `created_at`.
  const period = periodBounds(clock.now());
  const monthStart = new Date(`${period.start}T00:00:00Z`);
  const models = await db
    .select({
      model_name: usageRecords.modelName,
      messages: sql<number>`count(*)::int`,
      paid: sql<number>`(count(*) filter (where ${usageRecords.credits} > 0))::int`,
      credits: sql<number>`coalesce(sum(${usageRecords.credits}), 0)::float8`,
    })
    .from(usageRecords)
    // Studio test chats included: the member who runs them pays for them like for any other send.
    .where(and(eq(usageRecords.tenantId, member.tenantId), eq(usageRecords.memberId, member.id), gte(usageRecords.createdAt, monthStart)))
    .groupBy(usageRecords.modelName)
    .orderBy(desc(sql`sum(${usageRecords.credits})`), usageRecords.modelName);

  const paidMessages = models.reduce((sum, model) => sum + model.paid, 0);
  const ownUsage = models.reduce((sum, model) => sum + model.credits, 0);
  const average = paidMessages > 0 ? ownUsage / paidMessages : null;
  const remaining = limit ? limit.remaining : null;
  return {
    period_start: period.start,
    period_end: period.end,
    limited_by: limit?.scope ?? null,
    quota: limit?.quota ?? null,
    usage: limit ? limit.used : ownUsage,
    remaining,
    percentage_used: limit ? (limit.quota > 0 ? (limit.used / limit.quota) * 100 : 100) : null,
    depleted: isCreditsDepleted(toCreditCheck(limits)),
    depletion_kind: limit ? await depletionKindOf(db, member, limit.scope) : null,
    message_count: paidMessages,
    average_message_cost: average,
    estimated_messages_left: remaining !== null && average !== null ? Math.max(0, Math.floor(remaining / average)) : null,
    models: models.map(({ model_name, messages, credits }) => ({ model_name, messages, credits })),
  };
}

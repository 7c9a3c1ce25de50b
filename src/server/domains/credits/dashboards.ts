import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Dashboard, DashboardUsage, dashboardUsageQuerySchema } from '../../../shared/api/admin/dashboards';
import { DASHBOARD_MAX_MONTHS } from '../../../shared/domain/credits';
import { clock, periodOf } from '../../clock';
import type { Database } from '../../db/client';
import { rowsOf, type MemberRow } from '../../db/rows';
import { chatbots, members, usageRecords } from '../../db/schema';
import { AppError } from '../../errors';
import { monthRange } from './admin';

/**
 * The dashboard cards. An answer is one usage row that is not a web search's (each answer writes
 * exactly one, free ones included), so monthly messages count answers and monthly active users the
 * members who got one. Members count those not rejected; chatbots are the members' own (default
 * chatbots are the tenant's and are neither).
 */
export async function dashboard(db: Database, admin: MemberRow): Promise<Dashboard> {
  const month = periodOf(clock.now());
  const { from, to } = monthRange(month);
  const tenantId = admin.tenantId;
  const [memberCount] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(and(eq(members.tenantId, tenantId), sql`${members.status} in ('approved', 'pending', 'invited')`));
  const [activity] = await db
    .select({ users: sql<number>`count(distinct ${usageRecords.memberId})::int`, messages: sql<number>`count(*)::int` })
    .from(usageRecords)
    .where(
      and(
        eq(usageRecords.tenantId, tenantId),
        eq(usageRecords.webSearchCount, 0),
        sql`${usageRecords.createdAt} >= ${from.toISOString()}`,
        sql`${usageRecords.createdAt} < ${to.toISOString()}`,
      ),
    );
  const [bots] = await db
    .select({
      public: sql<number>`(count(*) filter (where ${chatbots.isPublic}))::int`,
      private: sql<number>`(count(*) filter (where not ${chatbots.isPublic}))::int`,
    })
    .from(chatbots)
    .where(and(eq(chatbots.tenantId, tenantId), eq(chatbots.isDefault, false)));
  return {
    month,
    member_count: memberCount?.n ?? 0,
    monthly_active_users: activity?.users ?? 0,
    monthly_messages: activity?.messages ?? 0,
    public_chatbot_count: bots?.public ?? 0,
    private_chatbot_count: bots?.private ?? 0,
  };
}

const monthsBetween = (start: string, end: string) => {
  const [sy, sm] = start.split('-').map(Number) as [number, number];
  const [ey, em] = end.split('-').map(Number) as [number, number];
  return (ey - sy) * 12 + (em - sm) + 1;
};

/** Monthly figures for the charts: every month of the range, empty months as zeros. */
export async function dashboardUsage(db: Database, admin: MemberRow, query: z.infer<typeof dashboardUsageQuerySchema>): Promise<DashboardUsage> {
  const span = monthsBetween(query.start_month, query.end_month);
  if (span < 1 || span > DASHBOARD_MAX_MONTHS)
    throw new AppError(422, 'validation_error', `The range must run forward and span at most ${DASHBOARD_MAX_MONTHS} months.`);
  const from = monthRange(query.start_month).from.toISOString();
  const to = monthRange(query.end_month).to.toISOString();
  const rows = rowsOf<{ month: string; active_users: number; messages: number; credits: number; new_members: number }>(
    await db.execute(sql`
      with months as (
        select to_char(m, 'YYYY-MM') as month from generate_series(${from}::timestamptz at time zone 'UTC', (${to}::timestamptz at time zone 'UTC') - interval '1 month', interval '1 month') as m
      ),
      usage as (
        select to_char(${usageRecords.createdAt} at time zone 'UTC', 'YYYY-MM') as month,
            count(distinct ${usageRecords.memberId}) filter (where ${usageRecords.webSearchCount} = 0) as active_users,
            count(*) filter (where ${usageRecords.webSearchCount} = 0) as messages,
            sum(${usageRecords.credits}) as credits
          from ${usageRecords}
          where ${usageRecords.tenantId} = ${admin.tenantId} and ${usageRecords.createdAt} >= ${from}::timestamptz and ${usageRecords.createdAt} < ${to}::timestamptz
          group by 1
      ),
      joined as (
        select to_char(${members.createdAt} at time zone 'UTC', 'YYYY-MM') as month, count(*) as new_members
          from ${members}
          where ${members.tenantId} = ${admin.tenantId} and ${members.createdAt} >= ${from}::timestamptz and ${members.createdAt} < ${to}::timestamptz
          group by 1
      )
      select months.month, coalesce(usage.active_users, 0)::int as active_users, coalesce(usage.messages, 0)::int as messages,
          coalesce(usage.credits, 0)::float8 as credits, coalesce(joined.new_members, 0)::int as new_members
        from months left join usage using (month) left join joined using (month)
        order by months.month`),
  );
  return {
    months: rows.map((row) => ({
      ...row,
      active_users: Number(row.active_users),
      messages: Number(row.messages),
      credits: Number(row.credits),
      new_members: Number(row.new_members),
    })),
  };
}

import { type SQL, and, asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  CreditAllocation,
  creditAllocationBodySchema,
  creditAllocationQuerySchema,
  CreditUsageReport,
  creditUsageQuerySchema,
} from '../../../shared/api/admin/credits';
import { diffFields } from '../../../shared/domain/audit';
import { clock, periodOf } from '../../clock';
import type { Database } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { creditBalances, llmModels, memberGroupLinks, memberGroups, members, usageRecords } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { recordAudits } from '../auditLog/service';
import { escapeLike } from '../chatbots/service';
import { creditCheck } from './service';
import { groupCreditsUsed, groupMemberCounts } from '../memberGroups/figures';
import { paginate } from '../../shared/pagination';

/** The outer row's id, qualified: drizzle leaves a lone table's columns unqualified, which a subquery would read as its own. */
const outerId = (table: 'member_groups' | 'members') => sql`${sql.identifier(table)}.${sql.identifier('id')}`;

/** This month's usage of a scope's balance rows, as a positive number. */
const usedThisMonth = (kind: 'group' | 'member', scopeId: SQL, tenantId: number, period: string) =>
  sql<number>`coalesce((select -${creditBalances.usageSum} from ${creditBalances} where ${creditBalances.tenantId} = ${tenantId} and ${creditBalances.scopeKind} = ${kind} and ${creditBalances.scopeId} = ${scopeId} and ${creditBalances.period} = ${period}), 0)::float8`;

/** The allocation screen: every group, a page of members, this month's use of each. */
export async function creditAllocation(db: Database, admin: MemberRow, query: z.infer<typeof creditAllocationQuerySchema>): Promise<CreditAllocation> {
  const period = periodOf(clock.now());
  const tenantId = admin.tenantId;
  const groupRows = await db
    .select({
      id: memberGroups.id,
      ko_name: memberGroups.koName,
      en_name: memberGroups.enName,
      is_default: memberGroups.isDefault,
      credit_quota: memberGroups.creditQuota,
      member_credit_quota: memberGroups.memberCreditQuota,
    })
    .from(memberGroups)
    .where(eq(memberGroups.tenantId, tenantId))
    .orderBy(sql`${memberGroups.isDefault} desc`, asc(memberGroups.id));
  // The same figures as the groups screen's (one source, domains/memberGroups/figures.ts).
  const groupIds = groupRows.map((group) => group.id);
  const [memberCounts, used] = await Promise.all([groupMemberCounts(db, tenantId, groupIds), groupCreditsUsed(db, tenantId, groupIds, period)]);
  const groups = groupRows.map((group) => ({ ...group, member_count: memberCounts.get(group.id) ?? 0, used: used.get(group.id) ?? 0 }));
  const memberFilter = and(
    eq(members.tenantId, tenantId),
    // The group's members as the groups screen counts them (linked to it), so the list and the count agree.
    query.group_id
      ? inArray(
          members.id,
          db
            .select({ id: memberGroupLinks.memberId })
            .from(memberGroupLinks)
            .where(and(eq(memberGroupLinks.tenantId, tenantId), eq(memberGroupLinks.memberGroupId, query.group_id))),
        )
      : undefined,
    query.search_term ? or(ilike(members.name, `%${escapeLike(query.search_term)}%`), ilike(members.email, `%${escapeLike(query.search_term)}%`)) : undefined,
  );
  const memberPage = await paginate(query, {
    count: async () => (await db.select({ n: count() }).from(members).where(memberFilter))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      db
        .select({
          id: members.id,
          name: members.name,
          email: members.email,
          member_group_id: members.defaultMemberGroupId,
          credit_quota: members.creditQuota,
          group_quota: memberGroups.memberCreditQuota,
          used: usedThisMonth('member', outerId('members'), tenantId, period),
        })
        .from(members)
        .leftJoin(memberGroups, eq(memberGroups.id, members.defaultMemberGroupId))
        .where(memberFilter)
        .orderBy(asc(members.name), asc(members.id))
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map(({ group_quota, ...row }) => ({ ...row, effective_quota: row.credit_quota ?? group_quota })),
  });
  const check = await creditCheck(db, admin);
  return { period, tenant_remaining: check.tenant.remaining_credit, groups, members: memberPage };
}

/**
 * Sets groups' monthly quotas and members' overrides together: every id must be the tenant's (404
 * otherwise), the default group's credit info cannot change (422), and all of it commits with one
 * `credit.allocation` audit row per changed group or member, or none of it does.
 */
export async function updateCreditAllocation(db: Database, admin: MemberRow, body: z.infer<typeof creditAllocationBodySchema>): Promise<{ updated: number }> {
  const tenantId = admin.tenantId;
  return db.transaction(async (tx) => {
    const groupIds = body.groups.map((group) => group.id);
    const memberIds = body.members.map((member) => member.id);
    const groups = groupIds.length
      ? await tx
          .select()
          .from(memberGroups)
          .where(and(eq(memberGroups.tenantId, tenantId), inArray(memberGroups.id, groupIds)))
          .for('update')
      : [];
    const targets = memberIds.length
      ? await tx
          .select()
          .from(members)
          .where(and(eq(members.tenantId, tenantId), inArray(members.id, memberIds)))
          .for('update')
      : [];
    if (groups.length !== new Set(groupIds).size || targets.length !== new Set(memberIds).size) throw notFound();
    const audits = [];
    for (const change of body.groups) {
      const group = groups.find((row) => row.id === change.id)!;
      const next = { creditQuota: change.credit_quota, memberCreditQuota: change.member_credit_quota };
      const changes = diffFields({ creditQuota: group.creditQuota, memberCreditQuota: group.memberCreditQuota }, next);
      if (Object.keys(changes).length === 0) continue;
      if (group.isDefault) throw new AppError(422, 'default_group_locked', "The default group's credit info cannot be changed.");
      await tx.update(memberGroups).set(next).where(eq(memberGroups.id, group.id));
      audits.push({ tenantId, actor: admin, action: 'credit.allocation' as const, targetType: 'member_group', targetId: group.id, changes });
    }
    for (const change of body.members) {
      const member = targets.find((row) => row.id === change.id)!;
      const changes = diffFields({ creditQuota: member.creditQuota }, { creditQuota: change.credit_quota });
      if (Object.keys(changes).length === 0) continue;
      await tx.update(members).set({ creditQuota: change.credit_quota, updatedAt: new Date() }).where(eq(members.id, member.id));
      audits.push({ tenantId, actor: admin, action: 'credit.allocation' as const, targetType: 'member', targetId: member.id, changes });
    }
    await recordAudits(tx, audits);
    return { updated: audits.length };
  });
}

/** First instant of a `YYYY-MM` month and of the next one (UTC). */
export function monthRange(month: string): { from: Date; to: Date } {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, monthIndex - 1, 1)), to: new Date(Date.UTC(year, monthIndex, 1)) };
}

/**
 * The usage tables of a month by group or member. The usage rows keep an answer's total credits;
 * the input share is its input tokens at the model's input price (0 for a free answer), the output
 * share the rest. A web search is a row of its own (count 1, its credits); an image row names the
 * image model and its count.
 */
export async function creditUsageReport(db: Database, admin: MemberRow, query: z.infer<typeof creditUsageQuerySchema>): Promise<CreditUsageReport> {
  const month = query.month ?? periodOf(clock.now());
  const { from, to } = monthRange(month);
  const byMember = query.group_by === 'member';
  const keyId = byMember ? usageRecords.memberId : usageRecords.memberGroupId;
  const koName = byMember ? sql<string | null>`max(${members.name})` : sql<string | null>`max(${memberGroups.koName})`;
  const enName = byMember ? sql<string | null>`max(${members.email})` : sql<string | null>`max(${memberGroups.enName})`;
  const inMonth = and(
    eq(usageRecords.tenantId, admin.tenantId),
    sql`${usageRecords.createdAt} >= ${from.toISOString()}`,
    sql`${usageRecords.createdAt} < ${to.toISOString()}`,
  );
  const inputCredits = sql`case when ${usageRecords.credits} > 0 and ${usageRecords.webSearchCount} = 0 then least(${usageRecords.credits}, ${usageRecords.inputTokens} / 10000.0 * coalesce(${llmModels.inputCostPer10k}, 0)) else 0 end`;
  const base = () =>
    db
      .select({
        key_id: keyId,
        ko_name: koName,
        en_name: enName,
        model_name: usageRecords.modelName,
        messages: sql<number>`(count(*) filter (where ${usageRecords.webSearchCount} = 0))::int`,
        input_tokens: sql<number>`coalesce(sum(${usageRecords.inputTokens}), 0)::int`,
        output_tokens: sql<number>`coalesce(sum(${usageRecords.outputTokens}), 0)::int`,
        input_credits: sql<number>`coalesce(sum(${inputCredits}), 0)::float8`,
        output_credits: sql<number>`coalesce(sum(case when ${usageRecords.webSearchCount} = 0 then ${usageRecords.credits} else 0 end) - sum(${inputCredits}), 0)::float8`,
        web_search_count: sql<number>`coalesce(sum(${usageRecords.webSearchCount}), 0)::int`,
        web_search_credits: sql<number>`coalesce(sum(case when ${usageRecords.webSearchCount} > 0 then ${usageRecords.credits} else 0 end), 0)::float8`,
        count: sql<number>`coalesce(sum(${usageRecords.imageCount}), 0)::int`,
        credits: sql<number>`coalesce(sum(${usageRecords.credits}), 0)::float8`,
      })
      .from(usageRecords)
      .leftJoin(llmModels, eq(llmModels.id, usageRecords.llmModelId))
      .leftJoin(members, eq(members.id, usageRecords.memberId))
      .leftJoin(memberGroups, eq(memberGroups.id, usageRecords.memberGroupId));
  const rows = await base()
    .where(inMonth)
    .groupBy(keyId, usageRecords.modelName, sql`${usageRecords.imageCount} > 0`)
    .orderBy(sql`sum(${usageRecords.credits}) desc`, asc(usageRecords.modelName));
  const llm = rows.filter((row) => row.count === 0).map(({ count: _count, credits: _credits, ...row }) => row);
  const image = rows
    .filter((row) => row.count > 0)
    .map(({ key_id, ko_name, en_name, model_name, count: images, credits }) => ({ key_id, ko_name, en_name, model_name, count: images, credits }));
  return { month, group_by: query.group_by, llm, image };
}

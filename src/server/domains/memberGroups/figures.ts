import { and, count, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { creditBalances, memberGroupLinks } from '../../db/schema';

/**
 * The two figures every screen shows of a group, from one place so they cannot disagree (issue 21):
 * the groups screen, its usage column and the credit allocation screen all read them here.
 */

/**
 * Members of each group: everyone linked to it, as its members drawer lists them (a member's
 * default group is always one of their links, additional groups are the others).
 */
export async function groupMemberCounts(q: Queryable, tenantId: number, groupIds: number[]): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await q
    .select({ groupId: memberGroupLinks.memberGroupId, n: count() })
    .from(memberGroupLinks)
    .where(and(eq(memberGroupLinks.tenantId, tenantId), inArray(memberGroupLinks.memberGroupId, groupIds)))
    .groupBy(memberGroupLinks.memberGroupId);
  return new Map(rows.map((row) => [row.groupId, row.n]));
}

/**
 * Credits each group used in a month (`YYYY-MM`, the app clock's), as a positive number: its
 * `credit_balances` row, which the ledger keeps up to date (spent credits are negative there).
 * Unrounded: the screens round it down (spec §9, `displayCredits`).
 */
export async function groupCreditsUsed(q: Queryable, tenantId: number, groupIds: number[], period: string): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await q
    .select({ groupId: creditBalances.scopeId, usage: creditBalances.usageSum })
    .from(creditBalances)
    .where(
      and(
        eq(creditBalances.tenantId, tenantId),
        eq(creditBalances.scopeKind, 'group'),
        inArray(creditBalances.scopeId, groupIds),
        eq(creditBalances.period, period),
      ),
    );
  return new Map(rows.map((row) => [row.groupId, Math.max(0, -Number(row.usage))]));
}

import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Paginated } from '../../../shared/api/common';
import type { MemberGroup, memberGroupListQuerySchema } from '../../../shared/api/memberGroups';
import type { Queryable } from '../../db/client';
import { memberGroups } from '../../db/schema';
import { escapeLike } from '../chatbots/service';
import { paginate } from '../../shared/pagination';

type MemberGroupQuery = z.output<typeof memberGroupListQuerySchema>;

/** A group's English name, or its Korean one when it has none: what lists sort by and what the server writes into exports and audits. */
export const groupSortName = sql<string>`coalesce(nullif(${memberGroups.enName}, ''), ${memberGroups.koName})`;

function groupOrder(orderBy: MemberGroupQuery['order_by']): SQL[] {
  if (!orderBy) return [desc(memberGroups.isDefault), asc(groupSortName), asc(memberGroups.id)];
  const [field, direction] = orderBy.split('.') as ['name' | 'created_at', 'asc' | 'desc'];
  const by = direction === 'asc' ? asc : desc;
  return [by(field === 'name' ? groupSortName : memberGroups.createdAt), by(memberGroups.id)];
}

/** The tenant's member groups by name (default first) or by `order_by`, for the sign-up and sharing pickers. */
export async function listMemberGroups(q: Queryable, tenantId: number, query: MemberGroupQuery): Promise<Paginated<MemberGroup>> {
  const conditions: SQL[] = [eq(memberGroups.tenantId, tenantId)];
  if (query.is_default !== undefined) conditions.push(eq(memberGroups.isDefault, query.is_default));
  if (query.search_term) {
    const pattern = `%${escapeLike(query.search_term)}%`;
    conditions.push(or(ilike(memberGroups.koName, pattern), ilike(memberGroups.enName, pattern)) as SQL);
  }
  const where = and(...conditions);
  return paginate(query, {
    count: async () => (await q.select({ n: count() }).from(memberGroups).where(where))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select({ id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName, is_default: memberGroups.isDefault })
        .from(memberGroups)
        .where(where)
        .orderBy(...groupOrder(query.order_by))
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows,
  });
}

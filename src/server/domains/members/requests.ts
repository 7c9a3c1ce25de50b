/**
 * Pending member requests (spec §4 "Member requests"): a new registration (a member with status
 * `pending`, their asked-for groups in a `registration` row of `member_group_queues`) or a group
 * change (a `group_update` row, My page). A member has at most one, so the member's id names it.
 * An admin approves or rejects them singly or in bulk; a rejection's reason is mailed.
 */
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { MemberRequest, memberRequestListQuerySchema } from '../../../shared/api/admin/memberRequests';
import type { Paginated } from '../../../shared/api/common';
import type { Queryable } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { memberGroupLinks, memberGroupQueues, members, plans } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { recordAudits } from '../auditLog/service';
import { type AdminMemberDeps, groupIdsOf, replaceGroups, tenantGroupRefs } from './admin';
import { escapeLike } from '../chatbots/service';
import { paginate } from '../../shared/pagination';
import type { SignupDeps } from '../signup/service';

type ListQuery = z.output<typeof memberRequestListQuerySchema>;
type RequestType = MemberRequest['request_type'];
export type MemberRequestDeps = AdminMemberDeps & Pick<SignupDeps, 'mail'>;

/** The queue row that belongs to the member's request: the registration one while pending, else a group change. */
const requestJoin = sql`${memberGroupQueues.memberId} = ${members.id} and ${memberGroupQueues.requestType} = (case when ${members.status} = 'pending' then 'registration' else 'group_update' end)`;
/** Pending members, and approved members with a group change waiting. */
const isRequest = or(eq(members.status, 'pending'), and(eq(members.status, 'approved'), eq(memberGroupQueues.requestType, 'group_update')));

export async function listMemberRequests(q: Queryable, tenantId: number, query: ListQuery): Promise<Paginated<MemberRequest>> {
  const filters: (SQL | undefined)[] = [eq(members.tenantId, tenantId), isRequest];
  if (query.request_type === 'registration') filters.push(eq(members.status, 'pending'));
  if (query.request_type === 'group_update') filters.push(sql`${members.status} <> 'pending'`);
  if (query.search_term) {
    const pattern = `%${escapeLike(query.search_term)}%`;
    filters.push(or(ilike(members.name, pattern), ilike(members.email, pattern)));
  }
  const where = and(...filters);
  const requestedAt = sql<Date>`coalesce(${memberGroupQueues.createdAt}, ${members.createdAt})`;
  return paginate(query, {
    count: async () => (await q.select({ total: count() }).from(members).leftJoin(memberGroupQueues, requestJoin).where(where))[0]?.total ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select({ member: members, queue: memberGroupQueues })
        .from(members)
        .leftJoin(memberGroupQueues, requestJoin)
        .where(where)
        .orderBy(asc(requestedAt), asc(members.id))
        .limit(limit)
        .offset(offset),
    toItems: async (rows) => {
      const [groups, current] = await Promise.all([
        tenantGroupRefs(q, tenantId),
        groupIdsOf(
          q,
          rows.map((row) => row.member),
        ),
      ]);
      return rows.map(({ member, queue }) => {
        const requestedDefault = queue?.defaultMemberGroupId ?? member.defaultMemberGroupId;
        const requested = [...new Set([requestedDefault, ...(queue?.memberGroupIds ?? [])])].filter((id): id is number => id !== null);
        return {
          member_id: member.id,
          name: member.name,
          email: member.email,
          member_type: member.memberType,
          request_type: member.status === 'pending' ? 'registration' : 'group_update',
          requested_default_member_group_id: requestedDefault,
          requested_groups: requested.flatMap((id) => groups.get(id) ?? []),
          current_groups: (current.get(member.id) ?? []).flatMap((id) => groups.get(id) ?? []),
          requested_at: new Date(queue?.createdAt ?? member.createdAt).toISOString(),
        };
      });
    },
  });
}

/** 402 when approving `approving` registrations would take the tenant past its plan's member limit. */
async function assertSeats(q: Queryable, tenant: TenantRow, approving: number): Promise<void> {
  if (approving === 0 || tenant.planId === null) return;
  const [plan] = await q.select({ memberLimit: plans.memberLimit }).from(plans).where(eq(plans.id, tenant.planId));
  if (plan?.memberLimit == null) return;
  const [row] = await q
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.tenantId, tenant.id), inArray(members.status, ['approved', 'invited'])));
  const active = row?.n ?? 0;
  if (active + approving > plan.memberLimit) {
    throw new AppError(402, 'member_limit_reached', "Approving would exceed the plan's member limit.", {
      member_limit: plan.memberLimit,
      member_count: active,
      approving,
    });
  }
}

interface Decided {
  member: MemberRow;
  type: RequestType;
}

/**
 * Decides the pending requests of `ids`, all or none: 404 when one has nothing pending, 402 when
 * approved registrations would pass the plan's member limit, 422 for a rejection without a reason.
 * Approving a registration makes the member approved with the groups they asked for; approving a
 * group change makes the requested groups theirs. Each requester's mail is written with the
 * decision and sent after it by the mail outbox: a mail that fails does not undo the decision.
 */
export async function decideRequests(
  deps: MemberRequestDeps,
  tenant: TenantRow,
  admin: MemberRow,
  ids: number[],
  decision: { approve: boolean; reason?: string },
  signInUrl: string,
): Promise<Decided[]> {
  const reason = decision.reason?.trim() ?? '';
  if (!decision.approve && reason === '') throw new AppError(422, 'reason_required', 'Please provide a reason for the requester.');
  const unique = [...new Set(ids)];
  const decided = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({ member: members, queue: memberGroupQueues })
      .from(members)
      .leftJoin(memberGroupQueues, requestJoin)
      .where(and(eq(members.tenantId, tenant.id), inArray(members.id, unique), isRequest))
      .for('update', { of: members });
    if (rows.length !== unique.length) throw notFound('No pending request of this member.');
    if (decision.approve) await assertSeats(tx, tenant, rows.filter((row) => row.member.status === 'pending').length);

    const results: Decided[] = [];
    for (const { member, queue } of rows) {
      const type: RequestType = member.status === 'pending' ? 'registration' : 'group_update';
      if (queue) await tx.delete(memberGroupQueues).where(eq(memberGroupQueues.id, queue.id));
      if (type === 'registration') {
        await tx
          .update(members)
          .set({ status: decision.approve ? 'approved' : 'rejected', updatedAt: new Date() })
          .where(eq(members.id, member.id));
      }
      const defaultId = queue?.defaultMemberGroupId ?? member.defaultMemberGroupId;
      if (decision.approve && defaultId !== null) {
        const asked = [defaultId, ...(queue?.memberGroupIds ?? [])];
        if (type === 'group_update') await replaceGroups(tx, member, defaultId, asked);
        else
          await tx
            .insert(memberGroupLinks)
            .values([...new Set(asked)].map((memberGroupId) => ({ tenantId: tenant.id, memberId: member.id, memberGroupId })))
            .onConflictDoNothing();
      }
      results.push({ member, type });
    }
    await recordAudits(
      tx,
      rows.map(({ member, queue }) => ({
        tenantId: tenant.id,
        actor: admin,
        action: 'member.request_decision' as const,
        targetType: 'member',
        targetId: member.id,
        changes: {
          request_type: member.status === 'pending' ? 'registration' : 'group_update',
          approve: decision.approve,
          ...(decision.approve ? {} : { reason }),
          default_member_group_id: queue?.defaultMemberGroupId ?? member.defaultMemberGroupId,
          member_group_ids: queue?.memberGroupIds ?? [],
        },
      })),
    );
    await deps.mail.queue(
      tx,
      tenant.id,
      results.map(({ member, type }) => {
        const data = { name: member.name, tenantName: tenant.name, requestType: type };
        return decision.approve
          ? { template: 'memberRequestApproved', to: member.email, language: member.language, data: { ...data, signInUrl } }
          : { template: 'memberRequestRejected', to: member.email, language: member.language, data: { ...data, reason } };
      }),
    );
    return results;
  });

  for (const { member } of decided) deps.auth.forgetMember(member);
  return decided;
}

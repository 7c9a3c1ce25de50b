/**
 * My page's group-change request (spec §2, §4 "Member requests", type group_update): a member asks
 * for other groups; the request waits in `member_group_queues` for an admin (decided in the admin
 * console's requests, domains/members/requests.ts), or applies at once when the tenant's `group_change_approval` is off. One pending
 * request per member: a new one replaces it.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { MemberGroupsState } from '../../../shared/api/groupRequests';
import type { Database } from '../../db/client';
import type { TenantRow } from '../../db/rows';
import type { AuthMember } from '../auth/service';
import { memberGroupLinks, memberGroupQueues, memberGroups } from '../../db/schema';
import { AppError, forbidden } from '../../errors';
import { readableMember } from '../members/service';
import { assertTenantGroups, replaceGroups } from '../members/admin';

export async function memberGroupsState(db: Database, tenant: TenantRow, requester: AuthMember, id: number): Promise<MemberGroupsState> {
  const member = await readableMember(db, requester, id);
  const [groups, links, [pending]] = await Promise.all([
    db
      .select({ id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName })
      .from(memberGroups)
      .where(eq(memberGroups.tenantId, member.tenantId))
      .orderBy(asc(memberGroups.id)),
    db.select({ id: memberGroupLinks.memberGroupId }).from(memberGroupLinks).where(eq(memberGroupLinks.memberId, member.id)),
    db
      .select()
      .from(memberGroupQueues)
      .where(and(eq(memberGroupQueues.memberId, member.id), eq(memberGroupQueues.requestType, 'group_update'))),
  ]);
  return {
    current: { default_member_group_id: member.defaultMemberGroupId, member_group_ids: links.map((link) => link.id).sort((a, b) => a - b) },
    pending:
      pending && pending.defaultMemberGroupId !== null
        ? { default_member_group_id: pending.defaultMemberGroupId, member_group_ids: pending.memberGroupIds, created_at: pending.createdAt.toISOString() }
        : null,
    groups,
    approval_required: tenant.groupChangeApproval,
  };
}

/**
 * 422 when a group is not the tenant's or the default is not among the chosen groups. With the
 * tenant's approval setting on, a pending `group_update` request (replacing an earlier one);
 * off, the groups change at once.
 */
export async function requestGroupChange(
  db: Database,
  tenant: TenantRow,
  requester: AuthMember,
  id: number,
  choice: { default_member_group_id: number; member_group_ids: number[] },
): Promise<MemberGroupsState> {
  if (id !== requester.id) throw forbidden();
  const ids = [...new Set(choice.member_group_ids)].sort((a, b) => a - b);
  if (!ids.includes(choice.default_member_group_id)) throw new AppError(422, 'validation_error', 'The default group must be one of the chosen groups.');
  await assertTenantGroups(db, requester.tenantId, ids);
  await db.transaction(async (tx) => {
    await tx.delete(memberGroupQueues).where(and(eq(memberGroupQueues.memberId, requester.id), eq(memberGroupQueues.requestType, 'group_update')));
    if (tenant.groupChangeApproval) {
      await tx.insert(memberGroupQueues).values({
        tenantId: requester.tenantId,
        memberId: requester.id,
        requestType: 'group_update',
        defaultMemberGroupId: choice.default_member_group_id,
        memberGroupIds: ids,
      });
      return;
    }
    await replaceGroups(tx, requester, choice.default_member_group_id, ids);
  });
  return memberGroupsState(db, tenant, requester, id);
}

export async function withdrawGroupChange(db: Database, tenant: TenantRow, requester: AuthMember, id: number): Promise<MemberGroupsState> {
  if (id !== requester.id) throw forbidden();
  await db.delete(memberGroupQueues).where(and(eq(memberGroupQueues.memberId, requester.id), eq(memberGroupQueues.requestType, 'group_update')));
  return memberGroupsState(db, tenant, requester, id);
}

import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminMemberGroup,
  adminMemberGroupListQuerySchema,
  createMemberGroupBodySchema,
  listMemberGroupMembers,
  patchMemberGroupBodySchema,
} from '../../../shared/api/admin/memberGroups';
import { diffFields } from '../../../shared/domain/audit';
import { hasOneName } from '../../../shared/domain/language';
import { clock, periodOf } from '../../clock';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { isUniqueViolation } from '../../db/databaseErrors';
import { llmModels, memberGroupLinks, memberGroupQueues, memberGroups, members, modelGroupPermissions } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { recordAudit } from '../auditLog/service';
import { escapeLike } from '../chatbots/service';
import { groupCreditsUsed, groupMemberCounts } from './figures';
import { groupSortName } from './service';
import { paginate } from '../../shared/pagination';

/**
 * The admin's member groups (spec §2 "Group management", §5, §7, §8): create, rename, quotas,
 * delete, members. Every query is scoped by the tenant; another tenant's id is a 404.
 */

type GroupRow = typeof memberGroups.$inferSelect;
type ListQuery = z.output<typeof adminMemberGroupListQuerySchema>;
type MembersQuery = z.output<NonNullable<typeof listMemberGroupMembers.query>>;

const groupNotFound = () => notFound('No such member group.');
const defaultGroupLocked = (message: string) => new AppError(422, 'default_group_locked', message);
const nameTaken = (field: 'ko_name' | 'en_name') => new AppError(409, 'group_name_taken', 'This group name is in use.', { field });

async function findGroup(q: Queryable, tenantId: number, id: number): Promise<GroupRow> {
  const [group] = await q
    .select()
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenantId), eq(memberGroups.id, id)));
  if (!group) throw groupNotFound();
  return group;
}

async function tenantDefaultGroup(q: Queryable, tenantId: number): Promise<GroupRow> {
  const [group] = await q
    .select()
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenantId), eq(memberGroups.isDefault, true)));
  if (!group) throw new AppError(422, 'invalid_member_group', 'The workspace has no default member group.');
  return group;
}

/** 409 when another group of the tenant has one of the names (letter case ignored: "Sales" and "sales" read as one). */
async function assertNamesFree(q: Queryable, tenantId: number, names: { ko_name?: string; en_name?: string }, exceptId?: number): Promise<void> {
  for (const field of ['ko_name', 'en_name'] as const) {
    const name = names[field];
    // '' is "no name in this language": any number of groups may lack one.
    if (name === undefined || name === '') continue;
    const column = field === 'ko_name' ? memberGroups.koName : memberGroups.enName;
    const [clash] = await q
      .select({ id: memberGroups.id })
      .from(memberGroups)
      .where(and(eq(memberGroups.tenantId, tenantId), sql`lower(${column}) = lower(${name})`, exceptId ? ne(memberGroups.id, exceptId) : undefined));
    if (clash) throw nameTaken(field);
  }
}

/** Two admins naming two groups alike at once: the unique index refuses the second, which gets the same 409. */
async function namesUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, 'group_name_taken', 'This group name is in use.');
    throw error;
  }
}

/** Member count and usable models (permitted ones and the unlimited model, spec §5) of each group. */
async function toAdminGroups(q: Queryable, tenantId: number, groups: GroupRow[]): Promise<AdminMemberGroup[]> {
  if (groups.length === 0) return [];
  const ids = groups.map((group) => group.id);
  const [counts, permitted, unlimited] = await Promise.all([
    groupMemberCounts(q, tenantId, ids),
    q
      .select({ groupId: modelGroupPermissions.memberGroupId, id: llmModels.id, name: llmModels.name, display_name: llmModels.displayName })
      .from(modelGroupPermissions)
      .innerJoin(llmModels, eq(llmModels.id, modelGroupPermissions.llmModelId))
      .where(
        and(
          eq(modelGroupPermissions.tenantId, tenantId),
          eq(modelGroupPermissions.isAvailable, true),
          eq(llmModels.isUnlimited, false),
          inArray(modelGroupPermissions.memberGroupId, ids),
        ),
      )
      .orderBy(asc(llmModels.id)),
    q
      .select({ id: llmModels.id, name: llmModels.name, display_name: llmModels.displayName })
      .from(llmModels)
      .where(and(eq(llmModels.tenantId, tenantId), eq(llmModels.isUnlimited, true))),
  ]);
  return groups.map((group) => ({
    id: group.id,
    ko_name: group.koName,
    en_name: group.enName,
    is_default: group.isDefault,
    credit_quota: group.creditQuota,
    member_credit_quota: group.memberCreditQuota,
    member_count: counts.get(group.id) ?? 0,
    usable_models: [...unlimited, ...permitted.filter((row) => row.groupId === group.id).map(({ groupId: _, ...model }) => model)],
    created_at: group.createdAt.toISOString(),
  }));
}

/** GET /admin/member-groups/: default group first, then by English name; search in either name. */
export async function listGroups(q: Queryable, tenantId: number, query: ListQuery) {
  const pattern = query.search_term ? `%${escapeLike(query.search_term)}%` : null;
  const where = and(eq(memberGroups.tenantId, tenantId), pattern ? or(ilike(memberGroups.koName, pattern), ilike(memberGroups.enName, pattern)) : undefined);
  return paginate(query, {
    count: async () => (await q.select({ n: count() }).from(memberGroups).where(where))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      q.select().from(memberGroups).where(where).orderBy(desc(memberGroups.isDefault), asc(groupSortName), asc(memberGroups.id)).limit(limit).offset(offset),
    toItems: (rows) => toAdminGroups(q, tenantId, rows),
  });
}

export async function getGroup(q: Queryable, tenantId: number, id: number): Promise<AdminMemberGroup> {
  return (await toAdminGroups(q, tenantId, [await findGroup(q, tenantId, id)]))[0]!;
}

/**
 * POST /admin/member-groups/. A new group starts with the default group's model permissions, so
 * its members can chat with the same models as everyone else until an admin changes them (without
 * rows they would have the unlimited model only). No quotas: no limit until an admin sets them.
 */
export async function createGroup(db: Database, admin: MemberRow, body: z.output<typeof createMemberGroupBodySchema>): Promise<AdminMemberGroup> {
  const tenantId = admin.tenantId;
  const group = await namesUnique(() =>
    db.transaction(async (tx) => {
      await assertNamesFree(tx, tenantId, body);
      const [created] = await tx.insert(memberGroups).values({ tenantId, koName: body.ko_name, enName: body.en_name }).returning();
      const fallback = await tenantDefaultGroup(tx, tenantId);
      await tx.execute(sql`
        insert into ${modelGroupPermissions} (tenant_id, llm_model_id, member_group_id, is_available)
        select tenant_id, llm_model_id, ${created!.id}, is_available from ${modelGroupPermissions}
        where tenant_id = ${tenantId} and member_group_id = ${fallback.id}`);
      await recordAudit(tx, {
        tenantId,
        actor: admin,
        action: 'member_group.create',
        targetType: 'member_group',
        targetId: created!.id,
        changes: { ko_name: body.ko_name, en_name: body.en_name },
      });
      return created!;
    }),
  );
  return getGroup(db, tenantId, group.id);
}

/** PATCH /admin/member-groups/{id}/: names (unique, 409) and credit quotas (422 for the default group, spec §5). */
export async function patchGroup(db: Database, admin: MemberRow, id: number, body: z.output<typeof patchMemberGroupBodySchema>): Promise<AdminMemberGroup> {
  const tenantId = admin.tenantId;
  await namesUnique(() =>
    db.transaction(async (tx) => {
      const group = await findGroup(tx, tenantId, id);
      const before = { ko_name: group.koName, en_name: group.enName, credit_quota: group.creditQuota, member_credit_quota: group.memberCreditQuota };
      const changes = diffFields(before, body);
      if (group.isDefault && ('credit_quota' in changes || 'member_credit_quota' in changes)) {
        throw defaultGroupLocked("The default group's credit info cannot be changed.");
      }
      if (Object.keys(changes).length === 0) return;
      if (!hasOneName({ ko_name: body.ko_name ?? group.koName, en_name: body.en_name ?? group.enName })) {
        throw new AppError(422, 'group_name_required', 'A group needs a Korean or an English name.');
      }
      await assertNamesFree(tx, tenantId, body, id);
      await tx
        .update(memberGroups)
        .set({ koName: body.ko_name, enName: body.en_name, creditQuota: body.credit_quota, memberCreditQuota: body.member_credit_quota })
        .where(eq(memberGroups.id, id));
      await recordAudit(tx, { tenantId, actor: admin, action: 'member_group.update', targetType: 'member_group', targetId: id, changes });
    }),
  );
  return getGroup(db, tenantId, id);
}

/**
 * Moves members whose default group is `from` to the tenant's default group (linked there too), in
 * the caller's transaction; `memberIds` narrows it to those members. Returns how many moved.
 */
async function moveToDefaultGroup(tx: Queryable, tenantId: number, from: number, fallback: number, memberIds?: number[]): Promise<number> {
  const moved = await tx
    .update(members)
    .set({ defaultMemberGroupId: fallback })
    .where(and(eq(members.tenantId, tenantId), eq(members.defaultMemberGroupId, from), memberIds ? inArray(members.id, memberIds) : undefined))
    .returning({ id: members.id });
  if (moved.length > 0) {
    await tx
      .insert(memberGroupLinks)
      .values(moved.map((member) => ({ tenantId, memberId: member.id, memberGroupId: fallback })))
      .onConflictDoNothing();
  }
  return moved.length;
}

/**
 * DELETE /admin/member-groups/{id}/: members whose default group it was fall back to the tenant's
 * default group; for the others it simply leaves their additional groups (the links cascade).
 * Pending group requests naming it keep their request with the default group in its place, instead
 * of vanishing with the cascade. The default group itself cannot be deleted (422).
 */
export async function deleteGroup(db: Database, admin: MemberRow, id: number) {
  const tenantId = admin.tenantId;
  return db.transaction(async (tx) => {
    const group = await findGroup(tx, tenantId, id);
    if (group.isDefault) throw defaultGroupLocked('The default group cannot be deleted.');
    const fallback = await tenantDefaultGroup(tx, tenantId);
    const movedMembers = await moveToDefaultGroup(tx, tenantId, id, fallback.id);
    await tx
      .update(memberGroupQueues)
      .set({ defaultMemberGroupId: fallback.id })
      .where(and(eq(memberGroupQueues.tenantId, tenantId), eq(memberGroupQueues.defaultMemberGroupId, id)));
    await tx.execute(sql`
      update ${memberGroupQueues}
      set member_group_ids = (select coalesce(jsonb_agg(e), '[]'::jsonb) from jsonb_array_elements(member_group_ids) e where e <> to_jsonb(${id}::int))
      where tenant_id = ${tenantId} and member_group_ids @> to_jsonb(array[${id}::int])`);
    await tx.delete(memberGroups).where(eq(memberGroups.id, id));
    await recordAudit(tx, {
      tenantId,
      actor: admin,
      action: 'member_group.delete',
      targetType: 'member_group',
      targetId: id,
      changes: { ko_name: group.koName, en_name: group.enName, moved_members: movedMembers },
    });
    return { ok: true as const, moved_members: movedMembers };
  });
}

/** GET /admin/member-groups/{id}/members/: by name; search in name or email. */
export async function listGroupMembers(q: Queryable, tenantId: number, id: number, query: MembersQuery) {
  await findGroup(q, tenantId, id);
  const pattern = query.search_term ? `%${escapeLike(query.search_term)}%` : null;
  const conditions: SQL[] = [eq(memberGroupLinks.tenantId, tenantId), eq(memberGroupLinks.memberGroupId, id)];
  if (pattern) conditions.push(or(ilike(members.name, pattern), ilike(members.email, pattern)) as SQL);
  const where = and(...conditions);
  return paginate(query, {
    count: async () =>
      (await q.select({ n: count() }).from(memberGroupLinks).innerJoin(members, eq(members.id, memberGroupLinks.memberId)).where(where))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select({ id: members.id, name: members.name, email: members.email, defaultGroupId: members.defaultMemberGroupId })
        .from(memberGroupLinks)
        .innerJoin(members, eq(members.id, memberGroupLinks.memberId))
        .where(where)
        .orderBy(asc(members.name), asc(members.id))
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map(({ defaultGroupId, ...member }) => ({ ...member, is_default_group: defaultGroupId === id })),
  });
}

/**
 * DELETE /admin/member-groups/{id}/members/{memberId}/: the member leaves the group; when it was
 * their default group they fall back to the tenant's default group, as on deleting the group. A
 * member cannot leave the tenant's default group while it is their default group (422): every
 * member has a default group.
 */
export async function removeGroupMember(db: Database, admin: MemberRow, id: number, memberId: number) {
  const tenantId = admin.tenantId;
  return db.transaction(async (tx) => {
    const group = await findGroup(tx, tenantId, id);
    const [member] = await tx
      .select({ id: members.id, email: members.email, defaultGroupId: members.defaultMemberGroupId })
      .from(memberGroupLinks)
      .innerJoin(members, eq(members.id, memberGroupLinks.memberId))
      .where(and(eq(memberGroupLinks.tenantId, tenantId), eq(memberGroupLinks.memberGroupId, id), eq(memberGroupLinks.memberId, memberId)));
    if (!member) throw notFound('The member is not in this group.');
    if (member.defaultGroupId === id) {
      if (group.isDefault) throw defaultGroupLocked('Members cannot leave the default group while it is their default group.');
      await moveToDefaultGroup(tx, tenantId, id, (await tenantDefaultGroup(tx, tenantId)).id, [memberId]);
    }
    await tx.delete(memberGroupLinks).where(and(eq(memberGroupLinks.memberId, memberId), eq(memberGroupLinks.memberGroupId, id)));
    await recordAudit(tx, {
      tenantId,
      actor: admin,
      action: 'member_group.remove_member',
      targetType: 'member_group',
      targetId: id,
      changes: { member_id: memberId, email: member.email },
    });
    return { ok: true as const };
  });
}

/** GET /admin/member-groups/usage/: each group's credits used this month (`groupCreditsUsed`) against its quota. */
export async function groupUsage(q: Queryable, tenantId: number) {
  const period = periodOf(clock.now());
  const groups = await q
    .select({ id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName, credit_quota: memberGroups.creditQuota })
    .from(memberGroups)
    .where(eq(memberGroups.tenantId, tenantId))
    .orderBy(desc(memberGroups.isDefault), asc(groupSortName), asc(memberGroups.id));
  const used = await groupCreditsUsed(
    q,
    tenantId,
    groups.map((group) => group.id),
    period,
  );
  return { items: groups.map((group) => ({ ...group, used: used.get(group.id) ?? 0, period })) };
}

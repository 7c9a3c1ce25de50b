/**
 * The admin console's members (spec §2 "All members", §6, §7): the searched and filtered list,
 * one member's edit (name, groups, custom fields, credit limit, admin rights), deletion, and the
 * bulk credit limit. Every write records its audit rows in the same transaction.
 */
import type { AppDeps } from '../../deps';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminMember,
  adminMemberListQuerySchema,
  adminMemberPatchSchema,
  adminMemberStatusChangeSchema,
  MemberGroupRef,
} from '../../../shared/api/admin/members';
import type { Paginated } from '../../../shared/api/common';
import { diffFields } from '../../../shared/domain/audit';
import type { SupportedLanguage } from '../../../shared/domain/language';
import type { Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { customFields, memberCustomFieldValues, memberGroupLinks, memberGroups, members } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { recordAudit, recordAudits } from '../auditLog/service';
import { escapeLike } from '../chatbots/service';
import { checkFieldValue, fieldNames } from './customFields';
import { paginate } from '../../shared/pagination';

type ListQuery = z.output<typeof adminMemberListQuerySchema>;
type MemberPatch = z.output<typeof adminMemberPatchSchema>;

/** `auth`: drops a changed member from this process's sign-in cache, and ends a deactivated member's sessions. */
export type AdminMemberDeps = Pick<AppDeps, 'db' | 'auth'>;

type StatusChange = z.output<typeof adminMemberStatusChangeSchema>;
/** Deactivation applies to approved members, reactivation to deactivated ones. */
const STATUS_CHANGED_FROM: Record<StatusChange, MemberRow['status']> = { deactivated: 'approved', approved: 'deactivated' };

/**
 * Sets the status of members already checked to be in the status it changes from, with a
 * `member.status` audit row each, inside the caller's transaction.
 */
async function writeStatus(tx: Queryable, admin: MemberRow, rows: Pick<MemberRow, 'id'>[], status: StatusChange): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.id);
  await tx
    .update(members)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(members.tenantId, admin.tenantId), inArray(members.id, ids)));
  await recordAudits(
    tx,
    ids.map((id) => ({
      tenantId: admin.tenantId,
      actor: admin,
      action: 'member.status' as const,
      targetType: 'member',
      targetId: id,
      changes: { member_status: { from: STATUS_CHANGED_FROM[status], to: status } },
    })),
  );
}

/**
 * After a status change is committed: a deactivated member's sessions end (their access tokens are
 * refused from the next request; their API keys and chatbots read the status on every use), and
 * this process forgets the cached rows either way.
 */
async function afterStatusChange(deps: AdminMemberDeps, tenantId: number, ids: number[], status: StatusChange): Promise<void> {
  for (const id of ids) {
    if (status === 'deactivated') await deps.auth.endSessions({ tenantId, id });
    deps.auth.forgetMember({ tenantId, id });
  }
}

const ORDER = {
  'created_at.desc': [desc(members.createdAt), desc(members.id)],
  'created_at.asc': [asc(members.createdAt), asc(members.id)],
  'name.asc': [asc(members.name), asc(members.id)],
  'name.desc': [desc(members.name), desc(members.id)],
  'email.asc': [asc(members.email)],
  'email.desc': [desc(members.email)],
} satisfies Record<NonNullable<ListQuery['order_by']>, SQL[]>;

/** The tenant's groups by id, for naming the groups of a page of members or requests. */
export async function tenantGroupRefs(q: Queryable, tenantId: number): Promise<Map<number, MemberGroupRef>> {
  const rows = await q
    .select({ id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName })
    .from(memberGroups)
    .where(eq(memberGroups.tenantId, tenantId))
    .orderBy(asc(memberGroups.id));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Each member's group ids (the default group first). */
export async function groupIdsOf(q: Queryable, rows: Pick<MemberRow, 'id' | 'defaultMemberGroupId'>[]): Promise<Map<number, number[]>> {
  const ids = rows.map((row) => row.id);
  const links = ids.length ? await q.select().from(memberGroupLinks).where(inArray(memberGroupLinks.memberId, ids)) : [];
  return new Map(
    rows.map((row) => {
      const own = links.filter((link) => link.memberId === row.id).map((link) => link.memberGroupId);
      return [row.id, [...own].sort((a, b) => (a === row.defaultMemberGroupId ? -1 : b === row.defaultMemberGroupId ? 1 : a - b))];
    }),
  );
}

/** The members as an admin sees them; `language` is the admin's, which names the custom fields. */
async function toAdminMembers(q: Queryable, tenantId: number, rows: MemberRow[], language: SupportedLanguage): Promise<AdminMember[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [groups, groupIds, fields, values] = await Promise.all([
    tenantGroupRefs(q, tenantId),
    groupIdsOf(q, rows),
    q.select().from(customFields).where(eq(customFields.tenantId, tenantId)).orderBy(asc(customFields.id)),
    q.select().from(memberCustomFieldValues).where(inArray(memberCustomFieldValues.memberId, ids)),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    member_status: row.status,
    member_type: row.memberType,
    is_admin: row.isAdmin,
    language: row.language,
    default_member_group_id: row.defaultMemberGroupId,
    member_groups: (groupIds.get(row.id) ?? []).flatMap((id) => groups.get(id) ?? []),
    credit_quota: row.creditQuota,
    sso_platform_id: row.ssoId ? row.ssoPlatformId : null,
    sso_id: row.ssoId,
    sso_user_type: row.ssoUserType,
    custom_fields: fields.map((field) => ({
      custom_field_id: field.id,
      ...fieldNames(field, language),
      field_type: field.fieldType,
      is_required: field.isRequired,
      is_editable: field.isEditable,
      is_unique: field.isUnique,
      value: values.find((value) => value.memberId === row.id && value.customFieldId === field.id)?.value ?? null,
    })),
    created_at: row.createdAt.toISOString(),
  }));
}

/**
 * Members of the tenant whose name, email or searchable custom-field value holds `pattern`: a union
 * of two lookups the trigram indexes answer (migration 0028), where an OR with an EXISTS would make
 * the planner read every member of the tenant.
 */
function searchMatches(tenantId: number, pattern: string): SQL {
  return sql`${members.id} in (
    select ${members.id} from ${members} where ${members.tenantId} = ${tenantId} and (${members.name} ilike ${pattern} or ${members.email} ilike ${pattern})
    union all
    select ${memberCustomFieldValues.memberId} from ${memberCustomFieldValues} join ${customFields} on ${customFields.id} = ${memberCustomFieldValues.customFieldId}
    where ${memberCustomFieldValues.tenantId} = ${tenantId} and ${customFields.isSearchable} and ${memberCustomFieldValues.value} ilike ${pattern})`;
}

/** The list's conditions, each served by an index (exported so a test can EXPLAIN the list's count). */
export function adminMemberFilters(tenantId: number, query: ListQuery): SQL | undefined {
  const filters: (SQL | undefined)[] = [eq(members.tenantId, tenantId)];
  if (query.search_term) filters.push(searchMatches(tenantId, `%${escapeLike(query.search_term)}%`));
  if (query.member_group_id !== undefined) {
    filters.push(
      sql`exists (select 1 from ${memberGroupLinks} where ${memberGroupLinks.memberId} = ${members.id} and ${memberGroupLinks.memberGroupId} = ${query.member_group_id})`,
    );
  }
  if (query.member_status) filters.push(eq(members.status, query.member_status));
  if (query.is_admin !== undefined) filters.push(eq(members.isAdmin, query.is_admin));
  if (query.member_type) filters.push(eq(members.memberType, query.member_type));
  if (query.has_sso !== undefined) filters.push(query.has_sso ? isNotNull(members.ssoId) : isNull(members.ssoId));
  return and(...filters);
}

export async function listAdminMembers(q: Queryable, tenantId: number, query: ListQuery, language: SupportedLanguage): Promise<Paginated<AdminMember>> {
  const where = adminMemberFilters(tenantId, query);
  return paginate(query, {
    count: async () =>
      (
        await q
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(members)
          .where(where)
      )[0]?.total ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select()
        .from(members)
        .where(where)
        .orderBy(...ORDER[query.order_by ?? 'created_at.desc'])
        .limit(limit)
        .offset(offset),
    toItems: (rows) => toAdminMembers(q, tenantId, rows, language),
  });
}

async function tenantMember(q: Queryable, tenantId: number, id: number): Promise<MemberRow> {
  const [row] = await q
    .select()
    .from(members)
    .where(and(eq(members.tenantId, tenantId), eq(members.id, id)));
  if (!row) throw notFound();
  return row;
}

export async function getAdminMember(q: Queryable, tenantId: number, id: number, language: SupportedLanguage): Promise<AdminMember> {
  const [member] = await toAdminMembers(q, tenantId, [await tenantMember(q, tenantId, id)], language);
  if (!member) throw notFound();
  return member;
}

const ownAccount = (message: string) => new AppError(422, 'own_account', message);

/** 422 unless every id is a group of the tenant. */
export async function assertTenantGroups(q: Queryable, tenantId: number, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await q
    .select({ id: memberGroups.id })
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenantId), inArray(memberGroups.id, ids)));
  if (found.length !== new Set(ids).size) throw new AppError(422, 'invalid_member_group', 'The member group does not exist.');
}

/** Makes `groupIds` (the default among them) the member's groups. */
export async function replaceGroups(q: Queryable, member: Pick<MemberRow, 'tenantId' | 'id'>, defaultGroupId: number, groupIds: number[]): Promise<void> {
  const ids = [...new Set([defaultGroupId, ...groupIds])];
  await q.update(members).set({ defaultMemberGroupId: defaultGroupId, updatedAt: new Date() }).where(eq(members.id, member.id));
  await q.delete(memberGroupLinks).where(eq(memberGroupLinks.memberId, member.id));
  await q.insert(memberGroupLinks).values(ids.map((memberGroupId) => ({ tenantId: member.tenantId, memberId: member.id, memberGroupId })));
}

/** Checks the custom field values an admin sets; returns what to write and what to clear. */
async function checkFieldValues(q: Queryable, member: MemberRow, given: NonNullable<MemberPatch['custom_fields']>, language: SupportedLanguage) {
  const ids = [...new Set(given.map((entry) => entry.custom_field_id))];
  if (ids.length !== given.length) throw new AppError(422, 'validation_error', 'Each custom field once.');
  const fields = ids.length
    ? await q
        .select()
        .from(customFields)
        .where(and(eq(customFields.tenantId, member.tenantId), inArray(customFields.id, ids)))
    : [];
  const upserts: { customFieldId: number; value: string }[] = [];
  const clears: number[] = [];
  for (const entry of given) {
    const field = fields.find((row) => row.id === entry.custom_field_id);
    if (!field) throw new AppError(422, 'validation_error', 'The custom field does not exist.', { custom_field_id: entry.custom_field_id });
    await checkFieldValue(q, field, entry.value, language, member.id);
    const value = entry.value.trim();
    if (value) upserts.push({ customFieldId: field.id, value });
    else clears.push(field.id);
  }
  return { upserts, clears };
}

/**
 * PATCH /admin/members/{id}/: 404 for another tenant's member, 422 for an admin removing their own
 * rights, an unknown group or a bad custom field value (409 for a unique value taken). Audit rows:
 * `member.update` (name, groups, custom fields), `member.credit_quota`, `member.admin_rights`,
 * `member.status` (deactivated or reactivated; 422 from any other status, or for one's own).
 */
export async function updateAdminMember(deps: AdminMemberDeps, admin: MemberRow, id: number, patch: MemberPatch): Promise<AdminMember> {
  const { db } = deps;
  if (id === admin.id && patch.is_admin === false) throw ownAccount('You cannot remove your own admin rights.');
  if (id === admin.id && patch.member_status !== undefined) throw ownAccount('You cannot change the status of your own account.');
  const statusChanged = await db.transaction(async (tx) => {
    const before = await tenantMember(tx, admin.tenantId, id);
    const audit = { tenantId: admin.tenantId, actor: admin, targetType: 'member', targetId: id };
    const changes: Record<string, unknown> = {};

    if (patch.name !== undefined && patch.name !== before.name) {
      await tx.update(members).set({ name: patch.name, updatedAt: new Date() }).where(eq(members.id, id));
      changes.name = { from: before.name, to: patch.name };
    }
    if (patch.default_member_group_id !== undefined || patch.member_group_ids !== undefined) {
      const current = (await groupIdsOf(tx, [before])).get(id) ?? [];
      const defaultId = patch.default_member_group_id ?? before.defaultMemberGroupId ?? patch.member_group_ids?.[0];
      if (defaultId === undefined) throw new AppError(422, 'invalid_member_group', 'A default member group is required.');
      const wanted = [...new Set([defaultId, ...(patch.member_group_ids ?? current)])];
      await assertTenantGroups(tx, admin.tenantId, wanted);
      await replaceGroups(tx, before, defaultId, wanted);
      Object.assign(
        changes,
        diffFields(
          { default_member_group_id: before.defaultMemberGroupId, member_group_ids: [...current].sort((a, b) => a - b) },
          { default_member_group_id: defaultId, member_group_ids: [...wanted].sort((a, b) => a - b) },
        ),
      );
    }
    if (patch.custom_fields) {
      const { upserts, clears } = await checkFieldValues(tx, before, patch.custom_fields, admin.language);
      const old = await tx.select().from(memberCustomFieldValues).where(eq(memberCustomFieldValues.memberId, id));
      if (clears.length)
        await tx.delete(memberCustomFieldValues).where(and(eq(memberCustomFieldValues.memberId, id), inArray(memberCustomFieldValues.customFieldId, clears)));
      for (const { customFieldId, value } of upserts) {
        await tx
          .insert(memberCustomFieldValues)
          .values({ tenantId: admin.tenantId, memberId: id, customFieldId, value })
          .onConflictDoUpdate({ target: [memberCustomFieldValues.memberId, memberCustomFieldValues.customFieldId], set: { value } });
      }
      const fieldChanges = diffFields(
        Object.fromEntries(old.map((row) => [`custom_field.${row.customFieldId}`, row.value])),
        Object.fromEntries([...upserts.map((u) => [`custom_field.${u.customFieldId}`, u.value]), ...clears.map((c) => [`custom_field.${c}`, null])]),
      );
      // A field that had no value is recorded with `to` only (jsonb drops the undefined `from`).
      Object.assign(changes, fieldChanges);
    }
    if (Object.keys(changes).length) await recordAudit(tx, { ...audit, action: 'member.update', changes });

    if (patch.credit_quota !== undefined && patch.credit_quota !== before.creditQuota) {
      await tx.update(members).set({ creditQuota: patch.credit_quota, updatedAt: new Date() }).where(eq(members.id, id));
      await recordAudit(tx, { ...audit, action: 'member.credit_quota', changes: { credit_quota: { from: before.creditQuota, to: patch.credit_quota } } });
    }
    if (patch.is_admin !== undefined && patch.is_admin !== before.isAdmin) {
      await tx.update(members).set({ isAdmin: patch.is_admin, updatedAt: new Date() }).where(eq(members.id, id));
      await recordAudit(tx, { ...audit, action: 'member.admin_rights', changes: { is_admin: { from: before.isAdmin, to: patch.is_admin } } });
    }
    if (patch.member_status === undefined || patch.member_status === before.status) return false;
    if (before.status !== STATUS_CHANGED_FROM[patch.member_status]) {
      throw new AppError(422, 'validation_error', 'Only approved members can be deactivated, and only deactivated ones reactivated.');
    }
    await writeStatus(tx, admin, [before], patch.member_status);
    return true;
  });
  if (statusChanged) await afterStatusChange(deps, admin.tenantId, [id], patch.member_status!);
  // Name, default group, quota and admin rights are all read from the cached member on each request.
  deps.auth.forgetMember({ tenantId: admin.tenantId, id });
  return getAdminMember(db, admin.tenantId, id, admin.language);
}

/**
 * Deletes members of the tenant, all or none: 404 when an id is not of the tenant, 422 when it is
 * the admin's own. Their sessions, chatbot links and values go with them (foreign keys cascade);
 * chatbots they made stay, without an author.
 */
export async function deleteMembers(deps: AdminMemberDeps, admin: MemberRow, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  if (unique.includes(admin.id)) throw ownAccount('You cannot delete your own account.');
  const deleted = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .delete(members)
      .where(and(eq(members.tenantId, admin.tenantId), inArray(members.id, unique)))
      .returning({ id: members.id, name: members.name, email: members.email, status: members.status });
    // Throwing rolls the deletion back: no member is deleted.
    if (rows.length !== unique.length) throw notFound();
    await recordAudits(
      tx,
      rows.map((row) => ({
        tenantId: admin.tenantId,
        actor: admin,
        action: 'member.delete',
        targetType: 'member',
        targetId: row.id,
        changes: { name: row.name, email: row.email, member_status: row.status },
      })),
    );
    return rows;
  });
  for (const row of deleted) deps.auth.forgetMember({ tenantId: admin.tenantId, id: row.id });
  return deleted.length;
}

/** Sets the monthly credit limit of members of the tenant (ids of other tenants are skipped); returns the ids changed. */
export async function setCreditQuota(deps: AdminMemberDeps, admin: MemberRow, memberIds: number[], creditQuota: number | null): Promise<number[]> {
  const updated = await deps.db.transaction(async (tx) => {
    const before = await tx
      .select({ id: members.id, creditQuota: members.creditQuota })
      .from(members)
      .where(and(eq(members.tenantId, admin.tenantId), inArray(members.id, memberIds)));
    if (before.length === 0) return [];
    await tx
      .update(members)
      .set({ creditQuota, updatedAt: new Date() })
      .where(
        and(
          eq(members.tenantId, admin.tenantId),
          inArray(
            members.id,
            before.map((row) => row.id),
          ),
        ),
      );
    await recordAudits(
      tx,
      before
        .filter((row) => row.creditQuota !== creditQuota)
        .map((row) => ({
          tenantId: admin.tenantId,
          actor: admin,
          action: 'member.credit_quota' as const,
          targetType: 'member',
          targetId: row.id,
          changes: { credit_quota: { from: row.creditQuota, to: creditQuota } },
        })),
    );
    return before.map((row) => row.id);
  });
  // The member cache holds the quota a send is checked against: this process sees the change at once.
  for (const id of updated) deps.auth.forgetMember({ tenantId: admin.tenantId, id });
  return updated;
}

/**
 * Deactivates the approved members among `memberIds`, or reactivates the deactivated ones (ids of
 * other tenants and members in any other status are skipped); 422 when the admin's own id is
 * among them. Returns the ids changed.
 */
export async function setMembersStatus(deps: AdminMemberDeps, admin: MemberRow, memberIds: number[], status: StatusChange): Promise<number[]> {
  if (memberIds.includes(admin.id)) throw ownAccount('You cannot change the status of your own account.');
  const changed = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.tenantId, admin.tenantId), inArray(members.id, memberIds), eq(members.status, STATUS_CHANGED_FROM[status])))
      .for('update');
    await writeStatus(tx, admin, rows, status);
    return rows.map((row) => row.id);
  });
  await afterStatusChange(deps, admin.tenantId, changed, status);
  return changed;
}

import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { CreditCheck, Member, memberPatchBodySchema } from '../../../shared/api/members';
import type { Database } from '../../db/client';
import { customFields, memberCustomFieldValues, members } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../errors';
import type { MemberRow } from '../../db/rows';
import type { AuthMember } from '../auth/service';
import { creditCheck } from '../credits/service';
import { checkFieldValue, fieldNames, fieldValueError } from './customFields';

export async function toMemberDto(db: Database, member: MemberRow): Promise<Member> {
  // Every field of the tenant, with the member's value or null: My page edits the editable ones.
  const fields = await db
    .select({
      custom_field_id: customFields.id,
      koName: customFields.koName,
      enName: customFields.enName,
      field_type: customFields.fieldType,
      is_required: customFields.isRequired,
      is_editable: customFields.isEditable,
      is_unique: customFields.isUnique,
      value: memberCustomFieldValues.value,
    })
    .from(customFields)
    .leftJoin(memberCustomFieldValues, and(eq(memberCustomFieldValues.customFieldId, customFields.id), eq(memberCustomFieldValues.memberId, member.id)))
    .where(eq(customFields.tenantId, member.tenantId))
    .orderBy(asc(customFields.id));
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    is_admin: member.isAdmin,
    language: member.language,
    custom_fields: fields.map(({ koName, enName, ...field }) => ({ ...field, ...fieldNames({ koName, enName }, member.language) })),
    member_status: member.status,
    member_type: member.memberType,
    sso_platform_id: member.ssoId ? member.ssoPlatformId : null,
    has_password: member.passwordHash !== null,
  };
}

/** A member of the requester's tenant the requester may read: oneself, or anyone for an admin. */
export async function readableMember(db: Database, requester: AuthMember, id: number): Promise<MemberRow> {
  if (id !== requester.id && !requester.isAdmin) throw forbidden();
  const [member] = await db
    .select()
    .from(members)
    .where(and(eq(members.tenantId, requester.tenantId), eq(members.id, id)));
  if (!member) throw notFound();
  return member;
}

export async function getMember(db: Database, requester: AuthMember, id: number): Promise<Member> {
  return toMemberDto(db, await readableMember(db, requester, id));
}

type MemberPatch = z.output<typeof memberPatchBodySchema>;

/**
 * The member's own values of editable custom fields, by the sign-up rules (spec §5): each sent
 * value is checked, an empty one clears the field. Returns the rows to write and to delete.
 */
async function checkOwnFieldValues(db: Database, requester: AuthMember, given: NonNullable<MemberPatch['custom_fields']>) {
  const ids = [...new Set(given.map((entry) => entry.custom_field_id))];
  if (ids.length !== given.length) throw new AppError(422, 'validation_error', 'Each custom field once.');
  const fields =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(customFields)
          .where(and(eq(customFields.tenantId, requester.tenantId), inArray(customFields.id, ids)));
  const byId = new Map(fields.map((field) => [field.id, field]));
  const upserts: { customFieldId: number; value: string }[] = [];
  const clears: number[] = [];
  for (const entry of given) {
    const field = byId.get(entry.custom_field_id);
    if (!field) throw new AppError(422, 'validation_error', 'The custom field does not exist.', { custom_field_id: entry.custom_field_id });
    if (!field.isEditable) throw fieldValueError(422, 'field_not_editable', field, requester.language, (name) => `${name} cannot be changed by members.`);
    await checkFieldValue(db, field, entry.value, requester.language, requester.id);
    const value = entry.value.trim();
    if (value) upserts.push({ customFieldId: field.id, value });
    else clears.push(field.id);
  }
  return { upserts, clears };
}

export async function updateOwnMember(db: Database, requester: AuthMember, id: number, patch: MemberPatch): Promise<Member> {
  if (id !== requester.id) throw forbidden();
  const { custom_fields: given, ...own } = patch;
  const values = given ? await checkOwnFieldValues(db, requester, given) : null;
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(members)
      .set({ ...own, updatedAt: new Date() })
      .where(and(eq(members.tenantId, requester.tenantId), eq(members.id, id)))
      .returning();
    if (!row || !values) return row;
    if (values.clears.length > 0) {
      await tx
        .delete(memberCustomFieldValues)
        .where(and(eq(memberCustomFieldValues.memberId, row.id), inArray(memberCustomFieldValues.customFieldId, values.clears)));
    }
    for (const { customFieldId, value } of values.upserts) {
      await tx
        .insert(memberCustomFieldValues)
        .values({ tenantId: row.tenantId, memberId: row.id, customFieldId, value })
        .onConflictDoUpdate({ target: [memberCustomFieldValues.memberId, memberCustomFieldValues.customFieldId], set: { value } });
    }
    return row;
  });
  if (!updated) throw notFound();
  return toMemberDto(db, updated);
}

export async function getCreditCheck(db: Database, requester: AuthMember, id: number): Promise<CreditCheck> {
  return creditCheck(db, await readableMember(db, requester, id));
}

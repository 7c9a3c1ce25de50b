import { and, eq } from 'drizzle-orm';
import type { CreditCheck, Member } from '../../shared/api/members';
import type { Database } from '../db/client';
import { customFields, memberCustomFieldValues, members } from '../db/schema';
import { forbidden, notFound } from '../errors';
import type { MemberRow } from '../db/rows';
import type { AuthMember } from './auth';
import { creditCheck } from './credits';

export async function toMemberDto(db: Database, member: MemberRow): Promise<Member> {
  const fields = await db
    .select({ field_name: customFields.fieldName, value: memberCustomFieldValues.value })
    .from(memberCustomFieldValues)
    .innerJoin(customFields, eq(customFields.id, memberCustomFieldValues.customFieldId))
    .where(and(eq(memberCustomFieldValues.tenantId, member.tenantId), eq(memberCustomFieldValues.memberId, member.id)));
  return {
    id: member.id,
    name: member.name,
    email: member.email,
    is_admin: member.isAdmin,
    language: member.language,
    custom_fields: fields,
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

export async function updateOwnMember(
  db: Database,
  requester: AuthMember,
  id: number,
  patch: { name?: string; language?: Member['language'] },
): Promise<Member> {
  if (id !== requester.id) throw forbidden();
  const [updated] = await db
    .update(members)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(members.tenantId, requester.tenantId), eq(members.id, id)))
    .returning();
  if (!updated) throw notFound();
  return toMemberDto(db, updated);
}

export async function getCreditCheck(db: Database, requester: AuthMember, id: number): Promise<CreditCheck> {
  return creditCheck(db, await readableMember(db, requester, id));
}

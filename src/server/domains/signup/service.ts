import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { signUpBodySchema } from '../../../shared/api/signup';
import type { SupportedLanguage } from '../../../shared/domain/language';
import { type SignupApproval, type SignupOutcome, type VerificationMethod, normalizePhone, validateName } from '../../../shared/domain/signup';
import { validateEmail } from '../../../shared/domain/validation';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/databaseErrors';
import type { MemberRow, TenantRow } from '../../db/rows';
import {
  customFields,
  memberCustomFieldValues,
  memberGroupLinks,
  memberGroupQueues,
  memberGroups,
  members,
  plans,
  policies,
  policyAgreements,
  tenants,
} from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { diffFields } from '../../../shared/domain/audit';
import { hashPassword } from '../auth/service';
import { assertNewPassword } from '../auth/passwordRules';
import { checkCode, issueCode, spendCode } from './verificationCodes';
import { checkFieldValue, toCustomField } from '../members/customFields';
import type { AppDeps } from '../../deps';

type SignUpInput = z.output<typeof signUpBodySchema>;

/** What the sign-up services use of the container (the members console, invitations and SSO too). */
export type SignupDeps = Pick<AppDeps, 'db' | 'mail' | 'sms' | 'auth' | 'log'>;

/** Members who hold (or wait for) a seat of the plan: rejected and deactivated ones do not count. */
const COUNTED_STATUSES = ['pending', 'approved', 'invited'] as const;

const normalizeEmail = (email: string) => email.trim().toLowerCase();

const closed = () => new AppError(403, 'signup_closed', 'Sign-up is not available for this workspace.');
const alreadyRegistered = () => new AppError(409, 'already_registered', 'This email is already registered.');

function assertOpen(tenant: TenantRow): void {
  if (!tenant.signupOpen || tenant.ssoOnly) throw closed();
}

export function signupSettings(tenant: TenantRow) {
  return {
    signup_open: tenant.signupOpen,
    sso_only: tenant.ssoOnly,
    sso_whitelist_only: tenant.ssoWhitelistOnly,
    group_change_approval: tenant.groupChangeApproval,
    approval: tenant.signupApproval,
    verification_methods: tenant.verificationMethods,
  };
}

export async function updateSignupSettings(
  db: Database,
  tenant: TenantRow,
  actor: AuditActor,
  patch: {
    signup_open?: boolean;
    sso_only?: boolean;
    sso_whitelist_only?: boolean;
    group_change_approval?: boolean;
    approval?: SignupApproval;
    verification_methods?: VerificationMethod[];
  },
) {
  return db.transaction(async (tx) => {
    // The request's tenant row may be a few seconds old (plugins/tenant cache): diff against the table.
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, tenant.id)).for('update');
    const [row] = await tx
      .update(tenants)
      .set({
        signupOpen: patch.signup_open,
        ssoOnly: patch.sso_only,
        ssoWhitelistOnly: patch.sso_whitelist_only,
        groupChangeApproval: patch.group_change_approval,
        signupApproval: patch.approval,
        verificationMethods: patch.verification_methods,
      })
      .where(eq(tenants.id, tenant.id))
      .returning();
    if (!before || !row) throw notFound();
    const changes = diffFields(signupSettings(before), signupSettings(row));
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'signup_settings.update', targetType: 'signup_settings', changes });
    return signupSettings(row);
  });
}

export async function listSignupCustomFields(db: Database, tenant: TenantRow, language: SupportedLanguage) {
  const rows = await db
    .select()
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.isSignupField, true)))
    .orderBy(asc(customFields.id));
  return rows.map((row) => toCustomField(row, language));
}

export async function memberCountCheck(db: Database, tenant: TenantRow) {
  const [plan] = tenant.planId ? await db.select({ memberLimit: plans.memberLimit }).from(plans).where(eq(plans.id, tenant.planId)) : [];
  const [row] = await db
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.tenantId, tenant.id), inArray(members.status, [...COUNTED_STATUSES])));
  const memberCount = row?.n ?? 0;
  const limit = plan?.memberLimit ?? null;
  return { member_count: memberCount, member_limit: limit, can_add_member: limit === null || memberCount < limit };
}

async function assertNotRegistered(db: Database, tenant: TenantRow, email: string): Promise<void> {
  const [existing] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.tenantId, tenant.id), eq(members.email, email)))
    .limit(1);
  if (existing) throw alreadyRegistered();
}

/**
 * POST /auth/code/: a fresh code for the email (earlier ones stop working), mailed or texted in the
 * asked language. A new one only after the cooldown (429 with the seconds left); 424 when delivery
 * failed, and then the code is not kept, so the member may ask again at once.
 */
export async function sendCode(
  deps: SignupDeps,
  tenant: TenantRow,
  input: { email: string; language: SupportedLanguage; method: VerificationMethod; phone?: string },
) {
  const { db } = deps;
  assertOpen(tenant);
  // Spec §8 "Send verification code": 400 is the invalid email, 422 an input data error (below).
  if (validateEmail(input.email)) throw new AppError(400, 'invalid_email', 'The email address is not valid.');
  if (!tenant.verificationMethods.includes(input.method)) throw new AppError(422, 'validation_error', 'This verification method is not offered.');
  const phone = input.method === 'sms' ? normalizePhone(input.phone ?? '') : null;
  if (input.method === 'sms' && !phone) throw new AppError(422, 'invalid_phone', 'The phone number is not valid.');
  const email = normalizeEmail(input.email);
  await assertNotRegistered(db, tenant, email);

  const { id: _id, ...answer } = await issueCode(deps, tenant, { email, purpose: 'sign_up', language: input.language, phone });
  return answer;
}

/** Checks the sign-up custom fields (spec §5) and returns the values to store. */
async function checkCustomFields(db: Database, tenant: TenantRow, given: SignUpInput['custom_fields'], language: SupportedLanguage) {
  const fields = await db
    .select()
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.isSignupField, true)));
  const byId = new Map(fields.map((f) => [f.id, f]));
  const values = new Map<number, string>();
  for (const entry of given) {
    if (!byId.has(entry.custom_field_id) || values.has(entry.custom_field_id)) {
      throw new AppError(422, 'invalid_signup_field', 'A custom field is not a sign-up field of this workspace.', { custom_field_id: entry.custom_field_id });
    }
    values.set(entry.custom_field_id, entry.value.trim());
  }
  for (const field of fields) await checkFieldValue(db, field, values.get(field.id), language);
  return [...values].filter(([, value]) => value !== '').map(([customFieldId, value]) => ({ customFieldId, value }));
}

async function checkGroups(db: Database, tenant: TenantRow, defaultGroupId: number, otherIds: number[]): Promise<number[]> {
  const wanted = [...new Set([defaultGroupId, ...otherIds])];
  const found = await db
    .select({ id: memberGroups.id })
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenant.id), inArray(memberGroups.id, wanted)));
  if (found.length !== wanted.length) throw new AppError(422, 'invalid_member_group', 'The member group does not exist.');
  return wanted.filter((id) => id !== defaultGroupId);
}

async function checkAgreements(db: Database, tenant: TenantRow, agreed: number[]): Promise<number[]> {
  const rows = await db.select({ id: policies.id, isMandatory: policies.isMandatory }).from(policies).where(eq(policies.tenantId, tenant.id));
  const known = new Set(rows.map((r) => r.id));
  const unique = [...new Set(agreed)];
  if (unique.some((id) => !known.has(id))) throw new AppError(422, 'validation_error', 'An agreement names a policy that does not exist.');
  if (rows.some((r) => r.isMandatory && !unique.includes(r.id))) {
    throw new AppError(422, 'policy_agreement_required', 'Please agree to our mandatory policies');
  }
  return unique;
}

/** What a new member brings besides their credentials: groups, custom-field values, agreements. */
interface Admission {
  email: string;
  name: string;
  language: SupportedLanguage;
  default_member_group_id: number;
  member_group_ids: number[];
  custom_fields: SignUpInput['custom_fields'];
  agreements: number[];
}

/** Checks everything but the credentials (spec §8 reasons): free email, a seat, groups, fields, agreements. */
async function checkAdmission(db: Database, tenant: TenantRow, input: Admission, { customFields = true } = {}) {
  if (validateName(input.name)) throw new AppError(422, 'invalid_name', 'The name must be 2 to 100 characters.');
  await assertNotRegistered(db, tenant, input.email);
  if (!(await memberCountCheck(db, tenant)).can_add_member) {
    throw new AppError(402, 'member_limit_reached', "The plan's member limit has been reached.");
  }
  return {
    otherGroupIds: await checkGroups(db, tenant, input.default_member_group_id, input.member_group_ids),
    fieldValues: customFields ? await checkCustomFields(db, tenant, input.custom_fields, input.language) : [],
    agreed: await checkAgreements(db, tenant, input.agreements),
  };
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Writes the member, their fields, agreements and groups (or the registration request an admin
 * decides) in one transaction, with `alsoInTransaction` (the spent code) and the welcome mail.
 */
async function admit(
  deps: SignupDeps,
  tenant: TenantRow,
  input: Admission,
  { otherGroupIds, fieldValues, agreed }: Awaited<ReturnType<typeof checkAdmission>>,
  credentials: { passwordHash: string | null; ssoPlatformId?: number; ssoId?: string },
  signInUrl: string,
  { alsoInTransaction = async () => undefined, invited = false }: { alsoInTransaction?: (tx: Transaction) => Promise<unknown>; invited?: boolean } = {},
): Promise<{ outcome: SignupOutcome; member_id: number }> {
  const { db } = deps;
  // Invited members need no approval (spec §4) and belong to the organization that invited them.
  const memberType = !invited && tenant.signupApproval === 'individual' ? 'individual' : 'organization';
  const pending = !invited && tenant.signupApproval === 'admin';
  let member: MemberRow;
  try {
    member = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(members)
        .values({
          tenantId: tenant.id,
          email: input.email,
          name: input.name.trim(),
          ...credentials,
          status: pending ? 'pending' : 'approved',
          memberType,
          language: input.language,
          defaultMemberGroupId: input.default_member_group_id,
        })
        .returning();
      if (!row) throw new Error('Member insert returned no row');
      await alsoInTransaction(tx);
      if (fieldValues.length > 0) {
        await tx.insert(memberCustomFieldValues).values(fieldValues.map((v) => ({ tenantId: tenant.id, memberId: row.id, ...v })));
      }
      if (agreed.length > 0) await tx.insert(policyAgreements).values(agreed.map((policyId) => ({ tenantId: tenant.id, policyId, memberId: row.id })));
      if (pending) {
        await tx.insert(memberGroupQueues).values({
          tenantId: tenant.id,
          memberId: row.id,
          requestType: 'registration',
          defaultMemberGroupId: input.default_member_group_id,
          memberGroupIds: otherGroupIds,
        });
      } else {
        await tx
          .insert(memberGroupLinks)
          .values([input.default_member_group_id, ...otherGroupIds].map((memberGroupId) => ({ tenantId: tenant.id, memberId: row.id, memberGroupId })));
      }
      if (!invited && tenant.signupApproval === 'auto') {
        const data = { name: row.name, tenantName: tenant.name, requestType: 'registration' as const, signInUrl };
        await deps.mail.queue(tx, tenant.id, [{ template: 'memberRequestApproved', to: input.email, language: input.language, data }]);
      }
      return row;
    });
  } catch (error) {
    // Two sign-ups of one email (or one SSO identity) at once: the unique indexes let one through.
    if (isUniqueViolation(error)) throw alreadyRegistered();
    throw error;
  }
  return { outcome: pending ? 'pending' : invited || tenant.signupApproval === 'auto' ? 'approved' : 'registered', member_id: member.id };
}

/**
 * POST /auth/sign-up/ (spec §8 statuses, reasons as error codes). Input is checked first, the code
 * last (a wrong code costs one of its attempts, a typo elsewhere should not).
 */
export async function signUp(
  deps: SignupDeps,
  tenant: TenantRow,
  input: SignUpInput,
  signInUrl: string,
): Promise<{ outcome: SignupOutcome; member_id: number }> {
  const { db } = deps;
  assertOpen(tenant);
  if (validateEmail(input.email)) throw new AppError(422, 'invalid_email', 'The email address is not valid.');
  assertNewPassword(input.password, tenant, 'invalid_password');
  if (validateName(input.name)) throw new AppError(422, 'invalid_name', 'The name must be 2 to 100 characters.');
  const memberType = tenant.signupApproval === 'individual' ? 'individual' : 'organization';
  if (input.member_type && input.member_type !== memberType) throw new AppError(422, 'invalid_member_type', 'This member type cannot sign up here.');
  // SSO members sign up through /auth/sso-sign-up/, which is where an SSO user type belongs.
  if (input.sso_user_type !== undefined) throw new AppError(422, 'invalid_sso_user_type', 'An SSO user type is not accepted by normal sign-up.');

  const admission = { ...input, email: normalizeEmail(input.email) };
  const checked = await checkAdmission(db, tenant, admission);
  const codeId = await checkCode(db, tenant, { email: admission.email, purpose: 'sign_up', code: input.auth_code });
  const passwordHash = await hashPassword(input.password);
  return admit(deps, tenant, admission, checked, { passwordHash }, signInUrl, { alsoInTransaction: (tx) => spendCode(tx, codeId) });
}

/**
 * POST /auth/sso-sign-up/: the identity an SSO platform vouched for replaces the email code and the
 * password (the member signs in through the platform). Open unless sign-up is closed altogether:
 * an SSO-only tenant is exactly where members arrive this way.
 */
export async function signUpWithSso(
  deps: SignupDeps,
  tenant: TenantRow,
  identity: { email: string; platformId: number; ssoId: string },
  input: Omit<Admission, 'email'>,
  signInUrl: string,
): Promise<{ outcome: SignupOutcome; member_id: number }> {
  if (!tenant.signupOpen) throw closed();
  if (validateEmail(identity.email)) throw new AppError(422, 'invalid_email', 'The SSO platform gave no valid email address.');
  const admission = { ...input, email: normalizeEmail(identity.email) };
  const checked = await checkAdmission(deps.db, tenant, admission);
  return admit(deps, tenant, admission, checked, { passwordHash: null, ssoPlatformId: identity.platformId, ssoId: identity.ssoId }, signInUrl);
}

/**
 * An invited member joins (spec §4: no approval): the invitation's group (or the default one),
 * agreements, their own password; `alsoInTransaction` marks the invitation used. An invitation from
 * a member upload carries the custom-field values and SSO id of its row, checked again here (a
 * unique value may have been taken since); others carry none and the page asks for none.
 */
export async function admitInvited(
  deps: SignupDeps,
  tenant: TenantRow,
  input: { email: string; name: string; language: SupportedLanguage; default_member_group_id: number; agreements: number[] },
  passwordHash: string,
  alsoInTransaction: (tx: Transaction) => Promise<unknown>,
  fromUpload: { customFieldValues: Array<{ customFieldId: number; value: string }>; ssoId: string | null } | null = null,
) {
  const custom_fields = (fromUpload?.customFieldValues ?? []).map((v) => ({ custom_field_id: v.customFieldId, value: v.value }));
  const admission = { ...input, email: normalizeEmail(input.email), custom_fields, member_group_ids: [] };
  const checked = await checkAdmission(deps.db, tenant, admission, { customFields: fromUpload !== null });
  const credentials = fromUpload?.ssoId ? { passwordHash, ssoId: fromUpload.ssoId } : { passwordHash };
  return admit(deps, tenant, admission, checked, credentials, '', { alsoInTransaction, invited: true });
}

/**
 * What an operator does before anyone can sign in (the admin CLI): create a tenant, its first
 * admin, reset a password. Same rules and hashing as the API, so an account made here signs in
 * like any other.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { PASSWORD_MIN } from '../../../shared/domain/account';
import { validateEmail } from '../../../shared/domain/validation';
import type { Database } from '../../db/client';
import { memberGroupLinks, memberGroups, members, piiSettings, refreshTokens, tenants } from '../../db/schema';
import { hashPassword } from '../auth/service';
import { newPasswordProblem } from '../auth/passwordRules';

/** Input the operator has to correct; the message says what is wrong. */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
}

const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const PASSWORD_RULES: Record<string, (minLength: number) => string> = {
  'validation.required': () => 'the password is empty',
  'validation.password_too_short': (minLength) => `the password needs at least ${minLength} characters`,
  'validation.password_weak': () => 'the password needs letters, digits and special characters',
  'validation.password_common': () => 'the password is one of the most common ones: choose another',
};

/** The API's rule for a new password (domains/auth/passwordRules), with the tenant's minimum length. */
function checkPassword(password: string, minLength: number): void {
  const problem = newPasswordProblem(password, minLength);
  if (problem) throw new ProvisioningError(PASSWORD_RULES[problem]?.(Math.max(PASSWORD_MIN, minLength)) ?? problem);
}

export async function tenantBySubdomain(db: Database, subdomain: string) {
  const [tenant] = await db.select().from(tenants).where(eq(tenants.subdomain, subdomain));
  if (!tenant) throw new ProvisioningError(`no tenant "${subdomain}" (see list-tenants)`);
  return tenant;
}

/** A tenant with its PII settings and the default member group new members join. */
export async function createTenant(db: Database, input: { subdomain: string; name: string }) {
  const subdomain = input.subdomain.trim().toLowerCase();
  const name = input.name.trim();
  if (!SUBDOMAIN_PATTERN.test(subdomain)) {
    throw new ProvisioningError(`subdomain "${input.subdomain}": use 1-63 lowercase letters, digits and inner dashes`);
  }
  if (!name) throw new ProvisioningError('the tenant name is empty');
  return db.transaction(async (tx) => {
    const [tenant] = await tx.insert(tenants).values({ subdomain, name }).onConflictDoNothing({ target: tenants.subdomain }).returning();
    if (!tenant) throw new ProvisioningError(`tenant "${subdomain}" already exists`);
    await tx.insert(piiSettings).values({ tenantId: tenant.id });
    await tx.insert(memberGroups).values({ tenantId: tenant.id, koName: '기본 그룹', enName: 'Default group', isDefault: true });
    return tenant;
  });
}

/** An approved admin of the tenant, in its default member group. */
export async function createAdmin(db: Database, input: { tenant: string; email: string; name: string; password: string }) {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  if (validateEmail(email)) throw new ProvisioningError(`"${input.email}" is not a valid email address`);
  if (!name) throw new ProvisioningError('the name is empty');
  const tenant = await tenantBySubdomain(db, input.tenant);
  checkPassword(input.password, tenant.passwordMinLength);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.tenantId, tenant.id), eq(members.email, email)));
    if (existing) throw new ProvisioningError(`"${email}" is already a member of "${tenant.subdomain}" (use reset-password)`);
    const [group] = await tx
      .select({ id: memberGroups.id })
      .from(memberGroups)
      .where(and(eq(memberGroups.tenantId, tenant.id), eq(memberGroups.isDefault, true)))
      .orderBy(asc(memberGroups.id))
      .limit(1);
    const [member] = await tx
      .insert(members)
      .values({ tenantId: tenant.id, email, name, passwordHash, isAdmin: true, status: 'approved', defaultMemberGroupId: group?.id ?? null })
      .returning();
    if (!member) throw new Error('member insert returned no row');
    if (group) await tx.insert(memberGroupLinks).values({ tenantId: tenant.id, memberId: member.id, memberGroupId: group.id });
    return member;
  });
}

/**
 * Sets a new password and revokes the member's refresh tokens: a reset after a leak must end the
 * sessions the leaked password opened (their access tokens are refused too: revoked families are
 * checked on every request, each server process within AUTH_CACHE_TTL_SECONDS).
 */
export async function resetPassword(db: Database, input: { tenant: string; email: string; password: string }) {
  const tenant = await tenantBySubdomain(db, input.tenant);
  checkPassword(input.password, tenant.passwordMinLength);
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [member] = await tx
      .update(members)
      .set({ passwordHash })
      .where(and(eq(members.tenantId, tenant.id), eq(members.email, email)))
      .returning({ id: members.id });
    if (!member) throw new ProvisioningError(`no member "${email}" in "${tenant.subdomain}"`);
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.memberId, member.id), isNull(refreshTokens.revokedAt)));
    return member;
  });
}

export async function listTenants(db: Database) {
  return db.select({ subdomain: tenants.subdomain, name: tenants.name, createdAt: tenants.createdAt }).from(tenants).orderBy(asc(tenants.subdomain));
}

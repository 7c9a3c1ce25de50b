import { and, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { adminSsoPlatformBodySchema } from '../../../shared/api/admin/ssoPlatforms';
import type { ssoAuthorizeBodySchema, ssoSignUpBodySchema, ssoVerifyBodySchema } from '../../../shared/api/sso';
import type { SupportedLanguage } from '../../../shared/domain/language';
import type { VerificationMethod } from '../../../shared/domain/signup';
import { SSO_IDENTITY_TTL_MINUTES, type SsoPlatformConfig } from '../../../shared/domain/sso';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/databaseErrors';
import type { MemberRow, TenantRow } from '../../db/rows';
import { members, ssoPlatforms, ssoWhitelist } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { diffFields } from '../../../shared/domain/audit';
import { type SsoIdentity, SsoPlatformUnavailableError, SsoRejectedError } from '../../sso/identity';
import { issuerProblem } from '../../sso/oidc';
import type { IssuedTokens } from '../auth/service';
import { toMemberDto } from '../members/service';
import { type SignupDeps, signUpWithSso } from '../signup/service';
import { checkCode, issueCode, spendCode } from '../signup/verificationCodes';
import type { AppDeps } from '../../deps';

export type SsoDeps = SignupDeps & Pick<AppDeps, 'oidc' | 'directory' | 'outbound'>;

type PlatformRow = typeof ssoPlatforms.$inferSelect;

/** The identity a platform vouched for, sealed for SSO_IDENTITY_TTL_MINUTES (sign in, sign up, connect). */
interface IdentityClaims {
  pid: number;
  sub: string;
  email: string;
  name: string;
}
/** The directory user of a first step, waiting for their code. */
interface PendingDirectoryClaims extends IdentityClaims {
  vid: number;
  uid: string;
  phone?: string;
}

const IDENTITY = 'sso-identity';
const PENDING = 'sso-directory-pending';
const TTL_SECONDS = SSO_IDENTITY_TTL_MINUTES * 60;

const rejected = () => new AppError(401, 'sso_rejected', 'The SSO sign-in was refused. Check your user ID and password and try again.');
const identityExpired = () => new AppError(401, 'sso_identity_expired', 'The SSO verification has expired. Please start again.');
const notEligible = () => new AppError(403, 'not_eligible', 'This account is not eligible to use the service.');

/** Platform failures become the member's message; nothing of the platform's answer leaks. */
async function throughPlatform<T>(deps: Pick<SsoDeps, 'log'>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SsoRejectedError) throw rejected();
    if (error instanceof SsoPlatformUnavailableError) {
      deps.log.error({ err: error }, 'SSO platform unavailable');
      throw new AppError(424, 'sso_unavailable', 'The SSO sign-in service cannot be reached. Please try again later.');
    }
    throw error;
  }
}

async function platformOf(db: Database, tenant: TenantRow, id: number): Promise<PlatformRow> {
  const [row] = await db
    .select()
    .from(ssoPlatforms)
    .where(and(eq(ssoPlatforms.tenantId, tenant.id), eq(ssoPlatforms.id, id)));
  if (!row) throw new AppError(404, 'not_found', 'This SSO platform does not exist.');
  return row;
}

function methodsOf(config: SsoPlatformConfig): VerificationMethod[] {
  return config.kind === 'directory' && config.phone_attribute ? ['email', 'sms'] : ['email'];
}

/** GET /sso-platforms/: what the sign-in page needs to draw each platform (never its settings). */
export async function listPlatforms(db: Database, tenant: TenantRow) {
  const rows = await db.select().from(ssoPlatforms).where(eq(ssoPlatforms.tenantId, tenant.id)).orderBy(ssoPlatforms.id);
  return rows.map((row) => ({ id: row.id, sso_platform_name: row.ssoPlatformName, kind: row.config.kind, verification_methods: methodsOf(row.config) }));
}

/** Whitelist mode (spec §2 "SSO whitelist"): only listed emails may use SSO at all. */
async function assertEligible(db: Database, tenant: TenantRow, email: string): Promise<void> {
  if (!tenant.ssoWhitelistOnly) return;
  const [listed] = await db
    .select({ id: ssoWhitelist.id })
    .from(ssoWhitelist)
    .where(and(eq(ssoWhitelist.tenantId, tenant.id), eq(ssoWhitelist.email, email.trim().toLowerCase())))
    .limit(1);
  if (!listed) throw notEligible();
}

async function memberOfIdentity(db: Database, tenant: TenantRow, claims: Pick<IdentityClaims, 'pid' | 'sub'>): Promise<MemberRow | undefined> {
  const [member] = await db
    .select()
    .from(members)
    .where(and(eq(members.tenantId, tenant.id), eq(members.ssoPlatformId, claims.pid), eq(members.ssoId, claims.sub)));
  return member;
}

async function vouchFor(deps: SsoDeps, tenant: TenantRow, platformId: number, identity: SsoIdentity) {
  await assertEligible(deps.db, tenant, identity.email);
  const claims: IdentityClaims = { pid: platformId, sub: identity.subject, email: identity.email.trim().toLowerCase(), name: identity.name };
  return {
    step: 'verified' as const,
    sso_access_token: await deps.auth.seal(tenant.id, IDENTITY, claims, TTL_SECONDS),
    email: claims.email,
    name: claims.name,
    registered: Boolean(await memberOfIdentity(deps.db, tenant, claims)),
  };
}

/** j***@example.com, +82******5678: enough to recognise, not to harvest. */
function mask(destination: string): string {
  if (destination.startsWith('+')) return `${destination.slice(0, 3)}${'*'.repeat(Math.max(destination.length - 7, 2))}${destination.slice(-4)}`;
  const [local = '', domain = ''] = destination.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

async function sendDirectoryCode(
  deps: SsoDeps,
  tenant: TenantRow,
  claims: Omit<PendingDirectoryClaims, 'vid'>,
  method: VerificationMethod,
  language: SupportedLanguage,
) {
  if (method === 'sms' && !claims.phone) throw new AppError(422, 'invalid_phone', 'The directory holds no phone number for this user.');
  const phone = method === 'sms' ? claims.phone! : null;
  const sent = await issueCode(deps, tenant, { email: claims.email, purpose: 'sso', language, phone });
  return {
    step: 'code_sent' as const,
    verification_id: sent.id,
    auth_token: await deps.auth.seal(tenant.id, PENDING, { ...claims, vid: sent.id } satisfies PendingDirectoryClaims, TTL_SECONDS),
    method,
    destination: mask(phone ?? claims.email),
    expires_at: sent.expires_at,
    resend_available_at: sent.resend_available_at,
  };
}

/** POST /sso-platforms/:id/authorize/: the OpenID Connect provider's page for this sign-in. */
export async function authorize(deps: SsoDeps, tenant: TenantRow, platformId: number, body: z.output<typeof ssoAuthorizeBodySchema>) {
  const { config } = await platformOf(deps.db, tenant, platformId);
  if (config.kind !== 'oidc') throw new AppError(422, 'validation_error', 'This platform signs in with a user ID and password.');
  const url = await throughPlatform(deps, () =>
    deps.oidc.authorizationUrl(config, { redirectUrl: body.redirect_url, codeChallenge: body.code_challenge, state: body.state }),
  );
  return { authorization_url: url };
}

/**
 * POST /sso-platforms/:id/verify/ (spec §7): a directory's first step (user ID and password, then a
 * code is sent) and second step (the code), or an OpenID Connect provider's authorization code.
 * What comes out is a verified identity, sealed, for sign-in, sign-up or connecting an account.
 */
export async function verify(deps: SsoDeps, tenant: TenantRow, platformId: number, body: z.output<typeof ssoVerifyBodySchema>) {
  const { config } = await platformOf(deps.db, tenant, platformId);
  if ('code_verifier' in body) {
    if (config.kind !== 'oidc') throw new AppError(422, 'validation_error', 'This platform signs in with a user ID and password.');
    const identity = await throughPlatform(deps, () =>
      deps.oidc.exchange(config, { redirectUrl: body.redirect_url, code: body.code, codeVerifier: body.code_verifier, state: body.state, iss: body.iss }),
    );
    return vouchFor(deps, tenant, platformId, identity);
  }
  if (config.kind !== 'directory') throw new AppError(422, 'validation_error', 'This platform signs in through its own page.');
  if ('user_pw' in body) {
    if (!methodsOf(config).includes(body.method)) throw new AppError(422, 'validation_error', 'This verification method is not offered.');
    const identity = await throughPlatform(deps, () => deps.directory.authenticate(config, body.user_id, body.user_pw));
    await assertEligible(deps.db, tenant, identity.email);
    const claims = {
      pid: platformId,
      sub: identity.subject,
      uid: body.user_id,
      email: identity.email.trim().toLowerCase(),
      name: identity.name,
      ...(identity.phone ? { phone: identity.phone } : {}),
    };
    return sendDirectoryCode(deps, tenant, claims, body.method, body.language);
  }
  const pending = await deps.auth.unseal<PendingDirectoryClaims>(tenant.id, PENDING, body.auth_token);
  if (!pending || pending.pid !== platformId || pending.vid !== body.verification_id) throw identityExpired();
  const codeId = await checkCode(deps.db, tenant, { email: pending.email, purpose: 'sso', code: body.code, id: body.verification_id });
  await spendCode(deps.db, codeId);
  return vouchFor(deps, tenant, platformId, { subject: pending.sub, email: pending.email, name: pending.name });
}

/** POST /sso-platforms/:id/send-code/: the directory code again, after the cooldown, by either way. */
export async function resendCode(
  deps: SsoDeps,
  tenant: TenantRow,
  platformId: number,
  body: { method: VerificationMethod; user_id: string; verification_id: number; auth_token: string; language: SupportedLanguage },
) {
  const pending = await deps.auth.unseal<PendingDirectoryClaims>(tenant.id, PENDING, body.auth_token);
  if (!pending || pending.pid !== platformId || pending.vid !== body.verification_id || pending.uid !== body.user_id) throw identityExpired();
  const { vid: _vid, ...claims } = pending;
  const { config } = await platformOf(deps.db, tenant, platformId);
  if (!methodsOf(config).includes(body.method)) throw new AppError(422, 'validation_error', 'This verification method is not offered.');
  return sendDirectoryCode(deps, tenant, claims, body.method, body.language);
}

async function identityOf(deps: SsoDeps, tenant: TenantRow, platformId: number, token: string): Promise<IdentityClaims> {
  const claims = await deps.auth.unseal<IdentityClaims>(tenant.id, IDENTITY, token);
  if (!claims || claims.pid !== platformId) throw identityExpired();
  await platformOf(deps.db, tenant, platformId);
  return claims;
}

/** POST /auth/sso-sign-in/: a session for the member connected to the verified identity. */
export async function signIn(deps: SsoDeps, tenant: TenantRow, body: { code: string; sso_platform_id: number }): Promise<IssuedTokens> {
  const claims = await identityOf(deps, tenant, body.sso_platform_id, body.code);
  await assertEligible(deps.db, tenant, claims.email);
  const member = await memberOfIdentity(deps.db, tenant, claims);
  if (!member) {
    throw new AppError(404, 'sso_account_not_found', 'No account is connected to this SSO account yet.', { email: claims.email, name: claims.name });
  }
  return deps.auth.signInAs(tenant, member);
}

/** POST /auth/sso-sign-up/: an account for the verified identity, by the tenant's sign-up rules. */
export async function signUp(deps: SsoDeps, tenant: TenantRow, body: z.output<typeof ssoSignUpBodySchema>, signInUrl: string) {
  const claims = await identityOf(deps, tenant, body.sso_platform_id, body.sso_access_token);
  await assertEligible(deps.db, tenant, claims.email);
  const { sso_access_token: _token, sso_platform_id: _platform, redirect_url: _redirect, ...admission } = body;
  return signUpWithSso(deps, tenant, { email: claims.email, platformId: claims.pid, ssoId: claims.sub }, admission, signInUrl);
}

function ownAccount(requester: MemberRow, memberId: number): void {
  // Connecting is a member's own act: an admin cannot attach someone's identity to another account.
  if (requester.id !== memberId) throw new AppError(403, 'forbidden', 'Access permission required.');
}

/** PUT /members/:id/sso-account/: one-click sign-in from now on (one platform per member). */
export async function connect(
  deps: SsoDeps,
  tenant: TenantRow,
  requester: MemberRow,
  memberId: number,
  body: { sso_access_token: string; sso_platform_id: number },
) {
  ownAccount(requester, memberId);
  const claims = await identityOf(deps, tenant, body.sso_platform_id, body.sso_access_token);
  const holder = await memberOfIdentity(deps.db, tenant, claims);
  if (holder && holder.id !== requester.id) throw new AppError(409, 'sso_account_in_use', 'This SSO account is connected to another account.');
  try {
    const [row] = await deps.db
      .update(members)
      .set({ ssoPlatformId: claims.pid, ssoId: claims.sub, updatedAt: new Date() })
      .where(and(eq(members.tenantId, tenant.id), eq(members.id, requester.id)))
      .returning();
    if (!row) throw notFound();
    deps.auth.forgetMember(row);
    return toMemberDto(deps.db, row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError(409, 'sso_account_in_use', 'This SSO account is connected to another account.');
    }
    throw error;
  }
}

/** DELETE /members/:id/sso-account/: refused when it would leave the account no way in. */
export async function disconnect(deps: SsoDeps, tenant: TenantRow, requester: MemberRow, memberId: number) {
  ownAccount(requester, memberId);
  if (!requester.passwordHash) {
    throw new AppError(422, 'sso_password_required', 'Set a password before disconnecting: it is your only way to sign in.');
  }
  const [row] = await deps.db
    .update(members)
    .set({ ssoPlatformId: null, ssoId: null, updatedAt: new Date() })
    .where(and(eq(members.tenantId, tenant.id), eq(members.id, requester.id)))
    .returning();
  if (!row) throw notFound();
  deps.auth.forgetMember(row);
  return toMemberDto(deps.db, row);
}

// ── Admin: the tenant's platforms ────────────────────────────────────────────────────────────

type PlatformBody = z.output<typeof adminSsoPlatformBodySchema>;

function secretOf(config: SsoPlatformConfig): string {
  return config.kind === 'oidc' ? config.client_secret : config.bind_password;
}

async function toAdminDto(db: Database, row: PlatformRow) {
  const [connected] = await db
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.tenantId, row.tenantId), eq(members.ssoPlatformId, row.id)));
  const settings = row.config.kind === 'oidc' ? { ...row.config, client_secret: '' } : { ...row.config, bind_password: '' };
  return { id: row.id, sso_platform_name: row.ssoPlatformName, settings, has_secret: secretOf(row.config) !== '', member_count: connected?.n ?? 0 };
}

/**
 * The settings to store: an empty secret keeps the one stored before (answers never carry it). An
 * address the server may not reach (loopback, private, link-local…, unless OUTBOUND_ALLOW lets it)
 * is refused now with a clear 422, rather than later as every member's failed sign-in.
 */
async function settingsToStore(deps: Pick<SsoDeps, 'outbound'>, body: PlatformBody, previous?: SsoPlatformConfig): Promise<SsoPlatformConfig> {
  const { settings } = body;
  const insecure = settings.kind === 'oidc' ? issuerProblem(settings.issuer) : null;
  if (insecure) throw new AppError(422, 'validation_error', insecure);
  const refused = await deps.outbound.destinationProblem(settings.kind === 'oidc' ? settings.issuer : settings.url);
  if (refused) throw new AppError(422, 'destination_refused', refused);
  if (settings.kind === 'oidc') {
    const kept = previous?.kind === 'oidc' ? previous.client_secret : '';
    return { ...settings, client_secret: settings.client_secret || kept };
  }
  const kept = previous?.kind === 'directory' ? previous.bind_password : '';
  return { ...settings, bind_password: settings.bind_password || kept };
}

export async function listAdminPlatforms(db: Database, tenant: TenantRow) {
  const rows = await db.select().from(ssoPlatforms).where(eq(ssoPlatforms.tenantId, tenant.id)).orderBy(ssoPlatforms.id);
  return { items: await Promise.all(rows.map((row) => toAdminDto(db, row))) };
}

/**
 * A platform as its audit row keeps it: name and settings without the secret (client secret or
 * bind password), which the audit log never holds; `secret_set` says whether there is one.
 */
function auditedPlatform(row: PlatformRow) {
  const { client_secret: _secret, bind_password: _password, ...settings } = { client_secret: '', bind_password: '', ...row.config };
  return { sso_platform_name: row.ssoPlatformName, ...settings, secret_set: secretOf(row.config) !== '' };
}

export async function createPlatform(deps: Pick<SsoDeps, 'db' | 'outbound'>, tenant: TenantRow, actor: AuditActor, body: PlatformBody) {
  const { db } = deps;
  const config = await settingsToStore(deps, body);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx.insert(ssoPlatforms).values({ tenantId: tenant.id, ssoPlatformName: body.sso_platform_name, config }).returning();
    if (!inserted) throw new Error('Platform insert returned no row');
    await recordAudit(tx, {
      tenantId: tenant.id,
      actor,
      action: 'sso_platform.create',
      targetType: 'sso_platform',
      targetId: inserted.id,
      changes: auditedPlatform(inserted),
    });
    return inserted;
  });
  return toAdminDto(db, row);
}

export async function updatePlatform(deps: Pick<SsoDeps, 'db' | 'oidc' | 'outbound'>, tenant: TenantRow, actor: AuditActor, id: number, body: PlatformBody) {
  const previous = await platformOf(deps.db, tenant, id);
  const config = await settingsToStore(deps, body, previous.config);
  const row = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(ssoPlatforms)
      .set({ ssoPlatformName: body.sso_platform_name, config })
      .where(and(eq(ssoPlatforms.tenantId, tenant.id), eq(ssoPlatforms.id, id)))
      .returning();
    if (!updated) throw notFound();
    // A replaced secret is said to have changed, never shown.
    const secretReplaced = secretOf(updated.config) !== secretOf(previous.config);
    const changes = {
      sso_platform_name: updated.ssoPlatformName,
      ...diffFields(auditedPlatform(previous), auditedPlatform(updated)),
      ...(secretReplaced ? { secret_replaced: true } : {}),
    };
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'sso_platform.update', targetType: 'sso_platform', targetId: id, changes });
    return updated;
  });
  if (previous.config.kind === 'oidc') deps.oidc.forget(previous.config);
  return toAdminDto(deps.db, row);
}

/** Members connected to it keep their accounts (the foreign key sets their platform to null). */
export async function deletePlatform(deps: Pick<SsoDeps, 'db' | 'auth'>, tenant: TenantRow, actor: AuditActor, id: number) {
  const platform = await platformOf(deps.db, tenant, id);
  const connected = await deps.db.transaction(async (tx) => {
    const disconnected = await tx
      .update(members)
      .set({ ssoPlatformId: null, ssoId: null })
      .where(and(eq(members.tenantId, tenant.id), eq(members.ssoPlatformId, id)))
      .returning({ id: members.id, tenantId: members.tenantId });
    const removed = await tx
      .delete(ssoPlatforms)
      .where(and(eq(ssoPlatforms.tenantId, tenant.id), eq(ssoPlatforms.id, id)))
      .returning({ id: ssoPlatforms.id });
    if (removed.length === 0) throw notFound();
    const changes = { ...auditedPlatform(platform), disconnected_members: disconnected.length };
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'sso_platform.delete', targetType: 'sso_platform', targetId: id, changes });
    return disconnected;
  });
  connected.forEach((member) => deps.auth.forgetMember(member));
  return { ok: true as const };
}

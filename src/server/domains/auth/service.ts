import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { validateEmail } from '../../../shared/domain/validation';
import type { ServerConfig } from '../../config';
import type { Database } from '../../db/client';
import type { AppDeps } from '../../deps';
import { retryOnLostConnection } from '../../db/connectionRetry';
import { members, refreshTokens, serverSecrets } from '../../db/schema';
import { AppError } from '../../errors';
import type { MemberRow, TenantRow } from '../../db/rows';
import { createTtlCache } from '../../ttlCache';

/** The member behind a valid access token, at most `memberCacheTtlMs` old (frozen: requests share it). */
export type AuthMember = MemberRow;

const ACCESS_TOKEN_VERSION = 'v1';
const SEALED_VERSION = 's1';
/**
 * How long a rotated refresh token may still be presented without counting as reuse. Web tabs
 * share one HttpOnly cookie (the dashboard and the /admin tab), so two of them can refresh with the
 * same token at the same moment; the slower one must get a session, not sign the user out everywhere.
 */
export const REFRESH_REUSE_GRACE_MS = 15_000;
const SIGNING_SECRET_NAME = 'access_token_signing_key';
/** A session (refresh-token family) id as issued: a UUID, or anything of its characters. */
const SESSION_FAMILY_PATTERN = /^[\w-]{1,100}$/;

/** argon2id with the library defaults (m=19 MiB, t=2, p=1: the OWASP baseline). */
export const hashPassword = (password: string): Promise<string> => hash(password);

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

const newRefreshToken = () => randomBytes(32).toString('base64url');

interface AccessTokenPayload {
  sub: number;
  tid: number;
  exp: number;
  /** The refresh-token family of the session, so a call can name its own session (change password). */
  fam?: string;
}

export interface IssuedTokens {
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken: string;
  member: MemberRow;
}

const sessionExpired = () => new AppError(401, 'session_expired', 'The session has expired. Please sign in again.');
const accountDeactivated = () => new AppError(403, 'account_deactivated', 'This account has been deactivated.');

interface AuthServiceOptions {
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /**
   * How long a member row, and whether a session is still alive, read by `authenticate` is reused;
   * writes of this process drop them at once, other processes see them within this time.
   */
  memberCacheTtlMs: number;
}

const authServiceOptions = (config: ServerConfig): AuthServiceOptions => ({
  accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  refreshTokenTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
  memberCacheTtlMs: config.AUTH_CACHE_TTL_SECONDS * 1000,
});

/**
 * Sign-in, access tokens and rotating refresh tokens. The HMAC key lives in the database
 * (one per tenant) so every server process behind a load balancer accepts the same tokens.
 */
export function createAuthService({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  const options = authServiceOptions(config);
  const signingKeys = new Map<number, Buffer>();
  // Keyed by tenant and member: a token of one tenant can never find another tenant's entry.
  const memberCache = createTtlCache<string, MemberRow | undefined>(options.memberCacheTtlMs);
  const memberKey = (tenantId: number, memberId: number) => `${tenantId}:${memberId}`;
  /** Call after changing a member row, so this process's next request reads it again. */
  const forgetMember = (member: Pick<MemberRow, 'tenantId' | 'id'>) => memberCache.delete(memberKey(member.tenantId, member.id));
  // Whether a session (refresh-token family) is alive, by tenant and family; the database is shared by
  // every process, so a revocation anywhere is seen everywhere within the cache's time.
  const sessionCache = createTtlCache<string, boolean>(options.memberCacheTtlMs);
  const sessionKey = (tenantId: number, familyId: string) => `${tenantId}:${familyId}`;
  const forgetSessions = (tenantId: number, familyIds: Iterable<string>) => {
    for (const familyId of familyIds) sessionCache.delete(sessionKey(tenantId, familyId));
  };
  let dummyHash: Promise<string> | null = null;

  /**
   * The tenant's HMAC key, made on first use. It reads the outer database when this process has not
   * cached it yet (the first request after a restart), so it is never called inside a transaction.
   */
  async function signingKey(tenantId: number): Promise<Buffer> {
    const cached = signingKeys.get(tenantId);
    if (cached) return cached;
    // Both statements are idempotent (the insert does nothing once a key exists): safe to run again.
    const [row] = await retryOnLostConnection(async () => {
      await db
        .insert(serverSecrets)
        .values({ tenantId, name: SIGNING_SECRET_NAME, value: randomBytes(32).toString('base64url') })
        .onConflictDoNothing();
      return db
        .select({ value: serverSecrets.value })
        .from(serverSecrets)
        .where(and(eq(serverSecrets.tenantId, tenantId), eq(serverSecrets.name, SIGNING_SECRET_NAME)));
    });
    if (!row) throw new Error('Signing key missing after insert');
    const key = Buffer.from(row.value, 'base64url');
    signingKeys.set(tenantId, key);
    return key;
  }

  async function signAccessToken(member: MemberRow, familyId: string): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + options.accessTokenTtlSeconds * 1000);
    const payload: AccessTokenPayload = { sub: member.id, tid: member.tenantId, exp: Math.floor(expiresAt.getTime() / 1000), fam: familyId };
    const body = `${ACCESS_TOKEN_VERSION}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = createHmac('sha256', await signingKey(member.tenantId))
      .update(body)
      .digest('base64url');
    return { token: `${body}.${signature}`, expiresAt };
  }

  /** The payload of a valid, unexpired token of this tenant, else null. */
  async function verifyAccessToken(tenantId: number, token: string): Promise<AccessTokenPayload | null> {
    const [version, encodedPayload, signature] = token.split('.');
    if (version !== ACCESS_TOKEN_VERSION || !encodedPayload || !signature) return null;
    const expected = createHmac('sha256', await signingKey(tenantId))
      .update(`${version}.${encodedPayload}`)
      .digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let payload: AccessTokenPayload;
    try {
      payload = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8')) as AccessTokenPayload;
    } catch {
      return null;
    }
    if (payload.tid !== tenantId || payload.exp * 1000 <= Date.now()) return null;
    // Only the server signs these, but a value of the wrong shape must never reach a query (a NUL
    // byte in `fam` would be refused by the database: a 400 instead of a 401).
    if (!Number.isSafeInteger(payload.sub) || (payload.fam !== undefined && (typeof payload.fam !== 'string' || !SESSION_FAMILY_PATTERN.test(payload.fam))))
      return null;
    return payload;
  }

  /** The session (refresh-token family) a valid access token belongs to, else null. */
  async function sessionFamily(tenantId: number, token: string | undefined): Promise<string | null> {
    return (token ? await verifyAccessToken(tenantId, token) : null)?.fam ?? null;
  }

  /**
   * Stores a refresh token of the family (its hash). Writing the same token again does nothing, so a
   * write whose connection was lost may be retried.
   */
  async function storeRefreshToken(queryable: Pick<Database, 'insert'>, member: MemberRow, familyId: string, refreshToken: string): Promise<void> {
    await queryable
      .insert(refreshTokens)
      .values({
        tenantId: member.tenantId,
        memberId: member.id,
        tokenHash: sha256(refreshToken),
        familyId,
        expiresAt: new Date(Date.now() + options.refreshTokenTtlDays * 86_400_000),
      })
      .onConflictDoNothing({ target: refreshTokens.tokenHash });
  }

  /** The session's tokens once its refresh token is stored (and committed): signing may read the tenant's key. */
  async function sessionTokens(member: MemberRow, familyId: string, refreshToken: string): Promise<IssuedTokens> {
    const access = await signAccessToken(member, familyId);
    return { accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken, member };
  }

  /** Spec §8 sign-in statuses: 422 malformed email, 401 wrong credentials, 403 not approved or deactivated, 423 not eligible. */
  async function signIn(tenant: TenantRow, email: string, password: string): Promise<IssuedTokens> {
    if (validateEmail(email)) throw new AppError(422, 'validation_error', 'The email address is not valid.');
    const [member] = await db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenant.id), eq(members.email, email.trim().toLowerCase())))
      .limit(1);
    if (!member?.passwordHash) {
      // Same work as a real check, so response time does not reveal which emails exist.
      dummyHash ??= hashPassword(randomUUID());
      await verify(await dummyHash, password);
      throw new AppError(401, 'invalid_credentials', 'Wrong email or password.');
    }
    if (!(await verify(member.passwordHash, password))) {
      throw new AppError(401, 'invalid_credentials', 'Wrong email or password.');
    }
    // SSO-only tenants (spec §8): members go through SSO; administrators keep a way in if SSO breaks.
    if (tenant.ssoOnly && !member.isAdmin) throw new AppError(403, 'sso_only', 'This workspace signs in with SSO only.');
    return signInAs(tenant, member);
  }

  /** A new session for a member whose identity was proven (password or SSO), if the account may be used. */
  async function signInAs(tenant: TenantRow, member: MemberRow): Promise<IssuedTokens> {
    forgetMember(member);
    if (member.status === 'pending' || member.status === 'invited') {
      throw new AppError(403, 'not_approved', 'This account has not been approved yet.', { member_type: member.memberType });
    }
    // Spec §4 account: a deactivated account says so at sign-in as at refresh.
    if (member.status === 'deactivated') throw accountDeactivated();
    if (member.status !== 'approved' || tenant.planStatus !== 'active') {
      throw new AppError(423, 'not_eligible', 'This account is not eligible to use the service.');
    }
    const familyId = randomUUID();
    const refreshToken = newRefreshToken();
    await retryOnLostConnection(() => storeRefreshToken(db, member, familyId, refreshToken));
    return sessionTokens(member, familyId, refreshToken);
  }

  /**
   * Claims sealed with the tenant's key for a short while (e.g. an identity an SSO platform vouched
   * for). The purpose is part of the MAC and the version differs from access tokens', so a sealed
   * value can never pass as an access token or as a value of another purpose.
   */
  async function seal(tenantId: number, purpose: string, claims: object, ttlSeconds: number): Promise<string> {
    const body = `${SEALED_VERSION}.${Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) + ttlSeconds })).toString('base64url')}`;
    const mac = createHmac('sha256', await signingKey(tenantId))
      .update(`${purpose}\n${body}`)
      .digest('base64url');
    return `${body}.${mac}`;
  }

  /** The claims of a valid, unexpired sealed value of this tenant and purpose, else null. */
  async function unseal<T extends object>(tenantId: number, purpose: string, sealed: string): Promise<T | null> {
    const [version, encoded, mac] = sealed.split('.');
    if (version !== SEALED_VERSION || !encoded || !mac) return null;
    const expected = createHmac('sha256', await signingKey(tenantId))
      .update(`${purpose}\n${version}.${encoded}`)
      .digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as T & { exp: number };
      return claims.exp * 1000 > Date.now() ? claims : null;
    } catch {
      return null;
    }
  }

  /**
   * Rotates a refresh token. Presenting a token that was already rotated means it leaked (or was
   * replayed): the whole family is revoked and both holders must sign in again, unless it was
   * rotated less than REFRESH_REUSE_GRACE_MS ago (a concurrent refresh), which gets a new token of
   * the same family, so a later theft check still revokes all of them together.
   */
  async function rotateRefreshToken(tenant: TenantRow, presented: string | undefined): Promise<IssuedTokens> {
    if (!presented) throw sessionExpired();
    // Safe to run again when the connection was lost, even after a commit nobody heard of: the
    // presented token is then rotated within the grace window and gets another token of its family.
    const outcome = await retryOnLostConnection(() =>
      db.transaction(async (tx) => {
        const [stored] = await tx
          .select()
          .from(refreshTokens)
          .where(and(eq(refreshTokens.tenantId, tenant.id), eq(refreshTokens.tokenHash, sha256(presented))))
          .for('update');
        if (!stored) return { error: sessionExpired() };
        if (stored.revokedAt || stored.expiresAt.getTime() <= Date.now()) {
          // A deactivation ends every session: its refresh says why (spec §8 auth_refresh_403), not just that it ended.
          const [owner] = await tx.select({ status: members.status }).from(members).where(eq(members.id, stored.memberId));
          return { error: owner?.status === 'deactivated' ? accountDeactivated() : sessionExpired() };
        }
        const rotatedInGrace = stored.rotatedAt !== null && Date.now() - stored.rotatedAt.getTime() < REFRESH_REUSE_GRACE_MS;
        if (stored.rotatedAt && !rotatedInGrace) {
          // Reuse of a rotated token: the whole session ends, its access tokens included.
          await revokeFamily(tx, stored.familyId);
          return { error: sessionExpired(), revoked: stored.familyId };
        }
        const [member] = await tx.select().from(members).where(eq(members.id, stored.memberId));
        if (member) forgetMember(member);
        if (!member || member.status !== 'approved') {
          await revokeFamily(tx, stored.familyId);
          return {
            error: member?.status === 'deactivated' || member?.status === 'rejected' ? accountDeactivated() : sessionExpired(),
            revoked: stored.familyId,
          };
        }
        // Keep the first rotation time, so that the grace window is not extended by each concurrent refresh.
        if (!stored.rotatedAt) await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, stored.id));
        const refreshToken = newRefreshToken();
        await storeRefreshToken(tx, member, stored.familyId, refreshToken);
        return { member, familyId: stored.familyId, refreshToken };
      }),
    );
    // Thrown outside the transaction so that the family revocation above is committed.
    if ('error' in outcome) {
      if ('revoked' in outcome && outcome.revoked) forgetSessions(tenant.id, [outcome.revoked]);
      throw outcome.error;
    }
    return sessionTokens(outcome.member, outcome.familyId, outcome.refreshToken);
  }

  async function revokeFamily(queryable: Pick<Database, 'update'>, familyId: string): Promise<void> {
    await queryable
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  async function signOut(tenant: TenantRow, presented: string | undefined): Promise<void> {
    if (!presented) return;
    const [stored] = await db
      .select({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tenantId, tenant.id), eq(refreshTokens.tokenHash, sha256(presented))));
    // Revoking what is revoked already changes nothing: safe to run again.
    if (stored) {
      await retryOnLostConnection(() => revokeFamily(db, stored.familyId));
      forgetSessions(tenant.id, [stored.familyId]);
    }
  }

  /**
   * Ends the member's sessions: every refresh-token family is revoked except `keepFamily` (the
   * caller's own session, named by its access token). Their access tokens stop working with them
   * (`authenticate` checks the family on every request).
   */
  async function endSessions(member: Pick<MemberRow, 'tenantId' | 'id'>, keepFamily?: string | null): Promise<void> {
    const ended = await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(refreshTokens.tenantId, member.tenantId),
          eq(refreshTokens.memberId, member.id),
          isNull(refreshTokens.revokedAt),
          keepFamily ? ne(refreshTokens.familyId, keepFamily) : undefined,
        ),
      )
      .returning({ familyId: refreshTokens.familyId });
    forgetSessions(member.tenantId, new Set(ended.map((row) => row.familyId)));
    forgetMember(member);
  }

  /**
   * Whether the session (refresh-token family) still has a token nobody revoked. Sign-out, a detected
   * reuse, a password reset or change (other sessions) and a deactivation revoke every token of the
   * family, so this is false from then on; it is also false for a family that no longer exists.
   */
  async function sessionAlive(tenantId: number, familyId: string): Promise<boolean> {
    return sessionCache.get(sessionKey(tenantId, familyId), async () => {
      const [row] = await retryOnLostConnection(() =>
        db
          .select({ id: refreshTokens.id })
          .from(refreshTokens)
          .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
          .limit(1),
      );
      return row !== undefined;
    });
  }

  /**
   * The member of a valid access token; 401 `unauthorized` when the token is bad, 401
   * `session_expired` when its session was revoked, 403 when the account is deactivated.
   */
  async function authenticate(tenant: TenantRow, token: string | undefined): Promise<AuthMember> {
    const payload = token ? await verifyAccessToken(tenant.id, token) : null;
    if (!payload) throw new AppError(401, 'unauthorized', 'Login required.');
    const memberId = payload.sub;
    const member = await memberCache.get(memberKey(tenant.id, memberId), async () => {
      const [row] = await db
        .select()
        .from(members)
        .where(and(eq(members.tenantId, tenant.id), eq(members.id, memberId)));
      return row && Object.freeze(row);
    });
    if (!member) throw new AppError(401, 'unauthorized', 'Login required.');
    if (member.status === 'deactivated' || member.status === 'rejected') throw accountDeactivated();
    // Every access token names its session; one without (never issued since `fam` exists) or of a
    // revoked session is refused at once, not when it expires.
    if (!payload.fam || !(await sessionAlive(tenant.id, payload.fam))) throw sessionExpired();
    return member;
  }

  return { signIn, signInAs, seal, unseal, rotateRefreshToken, signOut, authenticate, sessionFamily, forgetMember, endSessions };
}

export type AuthService = ReturnType<typeof createAuthService>;

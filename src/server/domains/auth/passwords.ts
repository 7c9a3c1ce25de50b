/**
 * Forgot password, reset with a mailed token, and change password (spec §2 "Forgot or reset
 * password", §8 "Reset password"). Only a hash of each token is stored; a token works once and
 * expires; setting a password ends the member's other sessions.
 */
import { randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { validateEmail } from '../../../shared/domain/validation';
import type { ServerConfig } from '../../config';
import type { AppDeps } from '../../deps';
import type { MemberRow, TenantRow } from '../../db/rows';
import { members, passwordResetTokens } from '../../db/schema';
import { AppError } from '../../errors';
import { hashPassword, sha256 } from './service';
import { appLink } from '../../shared/appLinks';
import { assertNewPassword } from './passwordRules';

interface PasswordSettings {
  resetTtlMinutes: number;
  rateWindowMs: number;
  resetEmailLimit: number;
  /** Attempts at the current password per member (change password), as for sign-in per email. */
  passwordAttemptLimit: number;
}

const passwordSettings = (config: ServerConfig): PasswordSettings => ({
  resetTtlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
  rateWindowMs: config.AUTH_RATE_WINDOW_SECONDS * 1000,
  resetEmailLimit: config.PASSWORD_RESET_EMAIL_RATE_LIMIT,
  passwordAttemptLimit: config.SIGN_IN_EMAIL_RATE_LIMIT,
});

const invalidEmail = () => new AppError(422, 'validation_error', 'The email address is not valid.');
const linkInvalid = () => new AppError(400, 'reset_link_invalid', 'This reset link is not valid or was already used.');
const linkExpired = () => new AppError(400, 'reset_link_expired', 'This reset link has expired. Ask for a new one.');

export function createPasswordService({ db, auth, mail, limiter, links, config }: Pick<AppDeps, 'db' | 'auth' | 'mail' | 'limiter' | 'links' | 'config'>) {
  const settings = passwordSettings(config);
  /** The mailed link opens `/auth/reset/<token>` of the web app. */
  const resetUrl = (tenant: TenantRow, token: string) => appLink(links, tenant, `/auth/reset/${token}`);

  /**
   * Mails a reset link when the email belongs to an approved member with a password; answers the
   * same for every other well-formed email (no account enumeration). The token and its mail are
   * written together, and the mail is sent before the answer: 424 when it fails, and then neither
   * the link nor its mail lives on (the member asks again).
   */
  async function requestReset(tenant: TenantRow, rawEmail: string): Promise<void> {
    if (validateEmail(rawEmail)) throw invalidEmail();
    const email = rawEmail.trim().toLowerCase();
    await limiter.rateLimit(`password-reset-email:${tenant.id}:${email}`, settings.resetEmailLimit, settings.rateWindowMs);
    const [member] = await db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenant.id), eq(members.email, email)))
      .limit(1);
    if (!member?.passwordHash || member.status !== 'approved') return;
    const token = randomBytes(32).toString('base64url');
    const { tokenId, mailIds } = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(passwordResetTokens)
        .values({ tenantId: tenant.id, memberId: member.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + settings.resetTtlMinutes * 60_000) })
        .returning({ id: passwordResetTokens.id });
      const mailIds = await mail.queue(
        tx,
        tenant.id,
        [
          {
            template: 'passwordReset',
            to: member.email,
            language: member.language,
            data: { name: member.name, resetUrl: resetUrl(tenant, token), expiresInMinutes: settings.resetTtlMinutes },
          },
        ],
        { deliverNow: true },
      );
      return { tokenId: row!.id, mailIds };
    });
    const [outcome] = await mail.deliverNow(mailIds, { retry: false });
    if (outcome === 'failed') {
      await db.delete(passwordResetTokens).where(eq(passwordResetTokens.id, tokenId));
      throw new AppError(424, 'mail_failed', 'The reset email could not be sent. Please try again later.');
    }
  }

  async function setPassword(member: Pick<MemberRow, 'tenantId' | 'id'>, password: string, keepFamily?: string | null): Promise<void> {
    await db
      .update(members)
      .set({ passwordHash: await hashPassword(password) })
      .where(and(eq(members.tenantId, member.tenantId), eq(members.id, member.id)));
    await auth.endSessions(member, keepFamily);
  }

  /**
   * Sets the new password with a mailed token and ends every session of the member (no tokens are
   * issued: the client sends them to sign in). The password rule is checked first, so a weak
   * password does not use the link up. Every other open link of the member is voided too.
   */
  async function confirmReset(tenant: TenantRow, token: string, newPassword: string): Promise<void> {
    assertNewPassword(newPassword, tenant, 'validation_error');
    const tokenHash = sha256(token);
    const now = new Date();
    // One conditional update claims the token: two concurrent confirmations cannot both succeed.
    const [claimed] = await db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tenantId, tenant.id),
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ memberId: passwordResetTokens.memberId });
    if (!claimed) {
      const [stored] = await db
        .select({ usedAt: passwordResetTokens.usedAt })
        .from(passwordResetTokens)
        .where(and(eq(passwordResetTokens.tenantId, tenant.id), eq(passwordResetTokens.tokenHash, tokenHash)));
      throw stored && !stored.usedAt ? linkExpired() : linkInvalid();
    }
    await db
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.memberId, claimed.memberId), isNull(passwordResetTokens.usedAt)));
    await setPassword({ tenantId: tenant.id, id: claimed.memberId }, newPassword);
  }

  /** Wrong current password: 400 `wrong_password` (not 401, which the clients read as "signed out"). */
  async function changePassword(tenant: TenantRow, member: MemberRow, current: string, newPassword: string, accessToken?: string): Promise<void> {
    await limiter.rateLimit(`change-password:${member.tenantId}:${member.id}`, settings.passwordAttemptLimit, settings.rateWindowMs);
    const [row] = await db.select({ passwordHash: members.passwordHash }).from(members).where(eq(members.id, member.id));
    if (!row?.passwordHash || !(await verify(row.passwordHash, current))) {
      throw new AppError(400, 'wrong_password', 'The current password is not correct.');
    }
    assertNewPassword(newPassword, tenant, 'validation_error');
    // The caller's own session (web or desktop) stays: its access token names it.
    await setPassword(member, newPassword, await auth.sessionFamily(member.tenantId, accessToken));
  }

  return { requestReset, confirmReset, changePassword };
}

export type PasswordService = ReturnType<typeof createPasswordService>;

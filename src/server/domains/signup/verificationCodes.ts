import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { SupportedLanguage } from '../../../shared/domain/language';
import {
  VERIFICATION_CODE_COOLDOWN_SECONDS,
  VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_TTL_MINUTES,
} from '../../../shared/domain/signup';
import type { Database } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { TenantRow } from '../../db/rows';
import { verificationCodes } from '../../db/schema';
import { AppError } from '../../errors';
import { SmsDeliveryError, verificationSms } from '../../sms/service';

/**
 * Six-digit codes that prove an email (or a phone, on the email's behalf): sign-up, and the
 * directory SSO's second step (docs/decisions/0040-sign-up.md, 0042-sso.md).
 */
type Purpose = 'sign_up' | 'sso';

/** Only a hash is stored; salted with tenant and email so one table row says nothing about another. */
const hashCode = (tenantId: number, email: string, code: string) => createHash('sha256').update(`${tenantId}\n${email}\n${code}`).digest('base64url');

/** The codes sent to an email for a purpose, and those of them not yet used up or expired. */
const codesOf = (tenantId: number, email: string, purpose: Purpose) =>
  and(eq(verificationCodes.tenantId, tenantId), eq(verificationCodes.email, email), eq(verificationCodes.purpose, purpose));
const unspentCodes = (tenantId: number, email: string, purpose: Purpose) => and(codesOf(tenantId, email, purpose), eq(verificationCodes.status, 'sent'));

/**
 * A fresh code for the email (earlier ones of the purpose stop working), mailed or texted in the
 * asked language. A new one only after the cooldown (429 with the seconds left). The code's mail is
 * written with the code and sent before the answer: 424 when delivery failed, and then neither the
 * code nor its mail lives on, so the member may ask again at once.
 */
export async function issueCode(
  { db, mail, sms }: Pick<AppDeps, 'db' | 'mail' | 'sms'>,
  tenant: TenantRow,
  input: { email: string; purpose: Purpose; language: SupportedLanguage; phone: string | null },
) {
  const { email, purpose } = input;
  const [latest] = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(codesOf(tenant.id, email, purpose))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const now = Date.now();
  if (latest) {
    const waitMs = latest.createdAt.getTime() + VERIFICATION_CODE_COOLDOWN_SECONDS * 1000 - now;
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError(429, 'code_cooldown', 'A code was sent a moment ago. Please wait before asking again.', { retry_after_seconds: seconds });
    }
  }

  const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
  const createdAt = new Date(now);
  const expiresAt = new Date(now + VERIFICATION_CODE_TTL_MINUTES * 60_000);
  const { row, mailIds } = await db.transaction(async (tx) => {
    await tx
      .update(verificationCodes)
      .set({ status: 'expired' })
      .where(unspentCodes(tenant.id, email, purpose));
    const [inserted] = await tx
      .insert(verificationCodes)
      .values({ tenantId: tenant.id, email, codeHash: hashCode(tenant.id, email, code), purpose, createdAt, expiresAt })
      .returning({ id: verificationCodes.id });
    const codeMail = {
      template: 'verificationCode' as const,
      to: email,
      language: input.language,
      data: { code, expiresInMinutes: VERIFICATION_CODE_TTL_MINUTES },
    };
    return { row: inserted!, mailIds: input.phone ? [] : await mail.queue(tx, tenant.id, [codeMail], { deliverNow: true }) };
  });
  const forget = () => db.delete(verificationCodes).where(eq(verificationCodes.id, row.id));
  if (input.phone) {
    try {
      await sms.send(input.phone, verificationSms(input.language, code, VERIFICATION_CODE_TTL_MINUTES));
    } catch (error) {
      await forget();
      if (error instanceof SmsDeliveryError) throw new AppError(424, 'sms_failed', 'The verification code text message could not be sent.');
      throw error;
    }
  } else if ((await mail.deliverNow(mailIds, { retry: false }))[0] === 'failed') {
    await forget();
    throw new AppError(424, 'mail_failed', 'The verification code email could not be sent.');
  }
  return {
    id: row.id,
    expires_at: expiresAt.toISOString(),
    resend_available_at: new Date(now + VERIFICATION_CODE_COOLDOWN_SECONDS * 1000).toISOString(),
  };
}

/**
 * The newest unspent code of the email and purpose must match (and be the one `id` names, when
 * given): 401 `code_expired` when there is none (never sent, expired, or spent by too many wrong
 * tries), 401 `invalid_code` for a wrong one (counted). Returns the code's id, for the caller's
 * transaction to mark verified.
 */
export async function checkCode(db: Database, tenant: TenantRow, input: { email: string; purpose: Purpose; code: string; id?: number }): Promise<number> {
  const { email, purpose } = input;
  const [latest] = await db
    .select()
    .from(verificationCodes)
    .where(unspentCodes(tenant.id, email, purpose))
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const expired = () => new AppError(401, 'code_expired', 'The verification code has expired or was not found. Please ask for a new one.');
  if (!latest || (input.id !== undefined && latest.id !== input.id)) throw expired();
  if (latest.expiresAt.getTime() <= Date.now() || latest.attempts >= VERIFICATION_CODE_MAX_ATTEMPTS) {
    await db.update(verificationCodes).set({ status: 'expired' }).where(eq(verificationCodes.id, latest.id));
    throw expired();
  }
  const expected = Buffer.from(latest.codeHash);
  const actual = Buffer.from(hashCode(tenant.id, email, input.code.trim()));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    const attempts = latest.attempts + 1;
    await db
      .update(verificationCodes)
      .set({ attempts, ...(attempts >= VERIFICATION_CODE_MAX_ATTEMPTS ? { status: 'expired' as const } : {}) })
      .where(eq(verificationCodes.id, latest.id));
    throw new AppError(401, 'invalid_code', 'The verification code is incorrect.');
  }
  return latest.id;
}

/** Marks a checked code spent (so it cannot be used twice). */
export const spendCode = (db: Pick<Database, 'update'>, id: number) =>
  db.update(verificationCodes).set({ status: 'verified' }).where(eq(verificationCodes.id, id));

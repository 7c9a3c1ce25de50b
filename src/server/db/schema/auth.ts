/** Sign-in state: refresh tokens, password resets, verification codes, signing secrets. */
import { index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { memberId } from './members';
import { tenantId } from './tenants';

export const verificationStatusEnum = pgEnum('verification_status', ['sent', 'verified', 'expired']);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: memberId(),
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    familyId: text('family_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

/**
 * Forgot-password links (POST /auth/reset-password/): only the SHA-256 of the mailed token is kept.
 * A row is used once (used_at); a new request does not void older links, each expires on its own.
 */
export const passwordResetTokens = pgTable('password_reset_tokens', {
  id: id(),
  tenantId: tenantId(),
  memberId: memberId(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    tenantId: tenantId(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    purpose: text('purpose', { enum: ['sign_up', 'reset_password', 'sso'] }).notNull(),
    status: verificationStatusEnum('status').notNull().default('sent'),
    /** Wrong codes tried against this one; past VERIFICATION_CODE_MAX_ATTEMPTS it counts as expired. */
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_email_idx').on(t.tenantId, t.email, t.createdAt)],
);

/** Per-tenant secrets shared by every server process (the access-token signing key). */
export const serverSecrets = pgTable(
  'server_secrets',
  {
    tenantId: tenantId(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);

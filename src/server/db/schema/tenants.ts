/** The tenant every other row belongs to (through `tenantId()`). */
import type { TenantFileLimits } from '../../../shared/domain/files';
import type { VerificationMethod } from '../../../shared/domain/signup';
import { type AnyPgColumn, boolean, integer, jsonb, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { plans } from './billing';
import { id, createdAt } from './columns';
import { files } from './files';

/** A function declaration: hoisted, so tables in modules that load while this one is still loading (the foreign keys between tenants and files or plans make a cycle) can call it. */
export function tenantId() {
  return integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
}

export const planStatusEnum = pgEnum('plan_status', ['active', 'inactive']);

/** What a completed sign-up becomes (docs/decisions/0040-sign-up.md): shared/domain/signup SIGNUP_APPROVALS. */
export const signupApprovalEnum = pgEnum('signup_approval', ['admin', 'auto', 'individual']);

export const tenants = pgTable('tenants', {
  id: id(),
  subdomain: text('subdomain').notNull().unique(),
  name: text('name').notNull(),
  logoUrl: text('logo_url'),
  /** The uploaded logo behind logo_url (served publicly by GET /tenants/logo/{id}/); null for none or an outside URL. */
  logoFileId: integer('logo_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
  /** The tenant's user manual, opened by the navigation's "Manual" item (hidden when null). */
  manualUrl: text('manual_url'),
  planId: integer('plan_id').references((): AnyPgColumn => plans.id, { onDelete: 'set null' }),
  planStatus: planStatusEnum('plan_status').notNull().default('active'),
  /** The plan lets members keep using the unlimited low-cost model when credits are depleted. */
  isLowLlmFree: boolean('is_low_llm_free').notNull().default(false),
  /** Overrides of the server's chat file limits for this tenant (domains/files/service `FileLimits`). */
  fileLimits: jsonb('file_limits').$type<TenantFileLimits>(),
  /** Where members' inquiries (contact modal) are mailed; SUPPORT_EMAIL when null. */
  supportEmail: text('support_email'),
  /** Sign-up settings (the spec does not show them): who approves a new account, how its email is verified. */
  signupApproval: signupApprovalEnum('signup_approval').notNull().default('admin'),
  /** False: normal sign-up is refused (invitations only, or SSO-only together with `sso_only`). */
  signupOpen: boolean('signup_open').notNull().default(true),
  /** Members come in through SSO only: normal sign-in and sign-up send them to SSO. */
  ssoOnly: boolean('sso_only').notNull().default(false),
  /** SSO sign-in and sign-up only for emails on the SSO whitelist (403 not eligible for others). */
  ssoWhitelistOnly: boolean('sso_whitelist_only').notNull().default(false),
  /** A member's group change waits for an administrator (true) or applies at once (false). */
  groupChangeApproval: boolean('group_change_approval').notNull().default(true),
  verificationMethods: jsonb('verification_methods').$type<VerificationMethod[]>().notNull().default(['email']),
  /** The shortest new password this tenant accepts (spec §5's 8 or more; set on the console's settings screen). */
  passwordMinLength: integer('password_min_length').notNull().default(8),
  createdAt: createdAt(),
});

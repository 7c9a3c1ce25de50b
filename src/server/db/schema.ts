/**
 * Every entity of spec §3. Each table but `tenants` carries `tenant_id`, and every service query
 * filters on it, so one database serves many tenants and a foreign id simply is not found.
 * Tables not used yet exist so later features add behaviour rather than reshape the data.
 */
import { sql } from 'drizzle-orm';
import { LANGUAGES } from '../../shared/domain/language';
import type { Citation } from '../../shared/api/chat';
import type { TenantFileLimits } from '../../shared/domain/files';
import type { VerificationMethod } from '../../shared/domain/signup';
import type { SsoPlatformConfig } from '../../shared/domain/sso';
import type { MailTemplateName } from '../mail/templates';
import {
  type AnyPgColumn,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  real,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const credits = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });
const tenantId = () =>
  integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const planStatusEnum = pgEnum('plan_status', ['active', 'inactive']);
export const memberStatusEnum = pgEnum('member_status', ['pending', 'approved', 'rejected', 'deactivated', 'invited']);
export const memberTypeEnum = pgEnum('member_type', ['organization', 'individual']);
export const languageEnum = pgEnum('language', LANGUAGES);
export const publishStatusEnum = pgEnum('publish_status', ['none', 'pending', 'approved', 'rejected']);
export const speakerTypeEnum = pgEnum('speaker_type', ['member', 'chatbot']);
/** Why an answer ended early: the member stopped it, the model failed, or its server stopped streaming it (crash, shutdown). */
export const interruptedEnum = pgEnum('interrupted', ['stopped', 'failed', 'interrupted']);
export const ledgerKindEnum = pgEnum('ledger_kind', ['grant', 'reservation', 'settlement']);
export const creditScopeEnum = pgEnum('credit_scope', ['tenant', 'group', 'member']);
export const taskStatusEnum = pgEnum('task_status', ['running', 'completed', 'failed']);
export const verificationStatusEnum = pgEnum('verification_status', ['sent', 'verified', 'expired']);
export const piiActionEnum = pgEnum('pii_action', ['off', 'block', 'mask']);
/** `ended`: the period ran out after a cancellation or after the last failed renewal (docs/decisions/0057-plans-and-membership.md). */
export const membershipStatusEnum = pgEnum('membership_status', ['active', 'cancelled', 'ended']);
export const paymentStatusEnum = pgEnum('payment_status', ['pending', 'paid', 'failed']);
export const paymentKindEnum = pgEnum('payment_kind', ['subscribe', 'upgrade', 'renewal']);
export const policyKindEnum = pgEnum('policy_kind', ['file', 'video', 'markdown']);
export const customFieldTypeEnum = pgEnum('custom_field_type', ['text', 'number']);
export const invitationStatusEnum = pgEnum('invitation_status', ['pending', 'accepted']);
export const mailStatusEnum = pgEnum('mail_status', ['pending', 'sending', 'sent', 'failed']);
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
  /** Overrides of the server's chat file limits for this tenant (services/files `FileLimits`). */
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

/** Billing plans a tenant offers (member-billing-plans) and the one it is on. */
export const plans = pgTable('plans', {
  id: id(),
  tenantId: tenantId(),
  koName: text('ko_name').notNull(),
  enName: text('en_name').notNull(),
  krwMonthPrice: integer('krw_month_price').notNull(),
  credit: credits('credit').notNull(),
  memberLimit: integer('member_limit'),
  invitationLimit: integer('invitation_limit'),
  createdAt: createdAt(),
});

export const memberGroups = pgTable(
  'member_groups',
  {
    id: id(),
    tenantId: tenantId(),
    /** A group has at least one of its two names; the missing one is '' (spec §5: each unique, not both present). */
    koName: text('ko_name').notNull().default(''),
    enName: text('en_name').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    /** Monthly credits the whole group may use; null is no group limit. */
    creditQuota: credits('credit_quota'),
    /** Monthly credits each member of the group may use unless the member has an override. */
    memberCreditQuota: credits('member_credit_quota'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('member_groups_ko_name_idx').on(t.tenantId, t.koName).where(sql`${t.koName} <> ''`),
    uniqueIndex('member_groups_en_name_idx').on(t.tenantId, t.enName).where(sql`${t.enName} <> ''`),
    uniqueIndex('member_groups_one_default_idx').on(t.tenantId).where(sql`${t.isDefault}`),
  ],
);

export const ssoPlatforms = pgTable('sso_platforms', {
  id: id(),
  tenantId: tenantId(),
  ssoPlatformName: text('sso_platform_name').notNull(),
  /** Kind and connection settings, secrets included (never sent to clients unmasked). */
  config: jsonb('config').$type<SsoPlatformConfig>().notNull(),
  createdAt: createdAt(),
});

export const members = pgTable(
  'members',
  {
    id: id(),
    tenantId: tenantId(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id; null for SSO-only members. */
    passwordHash: text('password_hash'),
    status: memberStatusEnum('status').notNull().default('pending'),
    memberType: memberTypeEnum('member_type').notNull().default('organization'),
    isAdmin: boolean('is_admin').notNull().default(false),
    language: languageEnum('language').notNull().default('ko'),
    defaultMemberGroupId: integer('default_member_group_id').references(() => memberGroups.id, { onDelete: 'set null' }),
    /** Overrides the group's member_credit_quota when set. */
    creditQuota: credits('credit_quota'),
    ssoPlatformId: integer('sso_platform_id').references(() => ssoPlatforms.id, { onDelete: 'set null' }),
    ssoId: text('sso_id'),
    ssoUserType: text('sso_user_type'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('members_email_idx').on(t.tenantId, t.email),
    // One account per identity of a platform: the identity signs in to exactly one member.
    uniqueIndex('members_sso_identity_idx').on(t.tenantId, t.ssoPlatformId, t.ssoId).where(sql`${t.ssoId} IS NOT NULL`),
    // The admin member list (10,000 members and more): its default order and its status filter.
    index('members_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('members_tenant_status_idx').on(t.tenantId, t.status),
    // Its free-text search (`ILIKE '%term%'`): trigram indexes answer a substring in any letter case.
    index('members_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('members_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);

/** Every group a member belongs to, the default one included. */
export const memberGroupLinks = pgTable(
  'member_group_links',
  {
    tenantId: tenantId(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
  },
  // The key leads with the member; the admin list's group filter and group counts start from the group.
  (t) => [primaryKey({ columns: [t.memberId, t.memberGroupId] }), index('member_group_links_group_idx').on(t.memberGroupId)],
);

/** Pending requests to join or change groups, approved or rejected by an admin. */
export const memberGroupQueues = pgTable(
  'member_group_queues',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    requestType: text('request_type', { enum: ['registration', 'group_update'] }).notNull(),
    defaultMemberGroupId: integer('default_member_group_id').references(() => memberGroups.id, { onDelete: 'cascade' }),
    memberGroupIds: jsonb('member_group_ids').$type<number[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  // A member's request, found by the member and its type (admin requests list, decisions, My page).
  (t) => [index('member_group_queues_member_idx').on(t.memberId, t.requestType)],
);

export const customFields = pgTable(
  'custom_fields',
  {
    id: id(),
    tenantId: tenantId(),
    /** A field has at least one of its two names; the missing one is '' (as a member group's). */
    koName: text('ko_name').notNull().default(''),
    enName: text('en_name').notNull().default(''),
    fieldType: customFieldTypeEnum('field_type').notNull().default('text'),
    isSignupField: boolean('is_signup_field').notNull().default(false),
    isSearchable: boolean('is_searchable').notNull().default(false),
    isRequired: boolean('is_required').notNull().default(false),
    isEditable: boolean('is_editable').notNull().default(true),
    isUnique: boolean('is_unique').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('custom_fields_ko_name_idx').on(t.tenantId, t.koName).where(sql`${t.koName} <> ''`),
    uniqueIndex('custom_fields_en_name_idx').on(t.tenantId, t.enName).where(sql`${t.enName} <> ''`),
  ],
);

export const memberCustomFieldValues = pgTable(
  'member_custom_field_values',
  {
    tenantId: tenantId(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    customFieldId: integer('custom_field_id')
      .notNull()
      .references(() => customFields.id, { onDelete: 'cascade' }),
    value: text('value'),
  },
  // The trigram index serves the admin member search over searchable fields' values.
  (t) => [primaryKey({ columns: [t.memberId, t.customFieldId] }), index('member_custom_field_values_value_trgm_idx').using('gin', t.value.op('gin_trgm_ops'))],
);

export const paymentMethods = pgTable('payment_methods', {
  id: id(),
  tenantId: tenantId(),
  memberId: integer('member_id').references(() => members.id, { onDelete: 'cascade' }),
  cardName: text('card_name').notNull(),
  /** Only the masked number is ever stored. */
  cardNumberMasked: text('card_number_masked').notNull(),
  type: text('type').notNull(),
  /** The card provider that holds the card (`demo`, `portone`) and its billing key; never the card number. */
  provider: text('provider').notNull().default('demo'),
  billingKey: text('billing_key'),
  createdAt: createdAt(),
});

export const memberships = pgTable('memberships', {
  id: id(),
  tenantId: tenantId(),
  memberId: integer('member_id').references(() => members.id, { onDelete: 'cascade' }),
  planId: integer('plan_id')
    .notNull()
    .references(() => plans.id),
  nextPlanId: integer('next_plan_id').references(() => plans.id),
  paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
  price: integer('price').notNull(),
  currency: text('currency').notNull().default('KRW'),
  status: membershipStatusEnum('status').notNull().default('active'),
  nextPaymentDate: date('next_payment_date'),
  /** Renewal charges that failed since the last success; the membership ends after the last retry. */
  failedAttempts: integer('failed_attempts').notNull().default(0),
  /** When the next renewal attempt is due (the payment date, then the retries); null when none is. */
  renewalDueAt: timestamp('renewal_due_at', { withTimezone: true }),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Every charge of a membership (purchase history, spec §3 Credit purchase): written `pending` before
 * the provider is called, so `order_id` (the provider's payment id) makes a retried job or a
 * replayed webhook land on the same row instead of charging twice.
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    tenantId: tenantId(),
    membershipId: integer('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    kind: paymentKindEnum('kind').notNull(),
    status: paymentStatusEnum('status').notNull().default('pending'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('KRW'),
    credit: credits('credit').notNull(),
    provider: text('provider').notNull(),
    orderId: text('order_id').notNull().unique(),
    providerPaymentId: text('provider_payment_id'),
    receiptUrl: text('receipt_url'),
    /** Our own receipt page for the demo provider: an unguessable token in its URL. */
    receiptToken: text('receipt_token'),
    failureReason: text('failure_reason'),
    periodStart: date('period_start'),
    periodEnd: date('period_end'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /**
     * Whose plan is paid (`tenant:<id>` or `member:<id>`): at most one charge per payer is pending
     * at a time (unique below), so two subscribe clicks or two admins at once cannot both charge.
     */
    ownerKey: text('owner_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('payments_membership_idx').on(t.membershipId, t.createdAt),
    uniqueIndex('payments_one_pending_per_owner_idx').on(t.ownerKey).where(sql`status = 'pending'`),
  ],
);

/** Webhook deliveries already handled, by the provider's delivery id: a replay is answered without acting again. */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/**
 * Append-only credit ledger. Grants add credits to the tenant (or a group); a chat send appends a
 * negative `reservation` for its estimate and later a `settlement` with the difference to the real
 * cost, so the sum of a scope's rows is always its balance and concurrent sends see each other.
 * A reservation names the answer it was made for, so that one abandoned by a crash can be settled.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: id(),
    tenantId: tenantId(),
    memberGroupId: integer('member_group_id').references(() => memberGroups.id, { onDelete: 'set null' }),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    kind: ledgerKindEnum('kind').notNull(),
    amount: credits('amount').notNull(),
    reservationId: integer('reservation_id').references((): AnyPgColumn => creditLedger.id),
    messageId: integer('message_id').references(() => sessionMessages.id, { onDelete: 'set null' }),
    koName: text('ko_name'),
    enName: text('en_name'),
    usageStartDate: date('usage_start_date'),
    usageEndDate: date('usage_end_date'),
    transactionPrice: integer('transaction_price'),
    transactionCurrency: text('transaction_currency'),
    receiptUrl: text('receipt_url'),
    /** A tenant's monthly plan grant names its period (`YYYY-MM`): one per tenant and month (services/creditPeriods). */
    planPeriod: text('plan_period'),
    /** An expiry (a negative grant) names the grant whose unused rest it takes back: at most one per grant. */
    expiresGrantId: integer('expires_grant_id').references((): AnyPgColumn => creditLedger.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_ledger_tenant_idx').on(t.tenantId, t.createdAt),
    uniqueIndex('credit_ledger_plan_period_idx').on(t.tenantId, t.planPeriod),
    uniqueIndex('credit_ledger_one_expiry_idx').on(t.expiresGrantId),
    index('credit_ledger_member_idx').on(t.memberId, t.createdAt),
    uniqueIndex('credit_ledger_one_settlement_idx').on(t.reservationId),
    // Deleting a session sets its messages' links to null, which must not scan the whole ledger.
    index('credit_ledger_message_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
    // The sweep's look for reservations whose answer was deleted while it streamed (releaseOrphanedReservations).
    index('credit_ledger_orphan_reservation_idx').on(t.createdAt).where(sql`${t.kind} = 'reservation' and ${t.messageId} is null`),
  ],
);

/**
 * Running sums of the credit ledger, kept in the same transaction as every ledger row, so that a
 * credit decision reads (and locks) a few rows instead of summing the ledger. The tenant row
 * (period `all`) holds its grants and all usage; group and member rows hold one month's usage
 * (period `YYYY-MM` of the ledger row's `created_at`). `scope_id` is the tenant, group or member id.
 */
export const creditBalances = pgTable(
  'credit_balances',
  {
    tenantId: tenantId(),
    scopeKind: creditScopeEnum('scope_kind').notNull(),
    scopeId: integer('scope_id').notNull(),
    period: text('period').notNull(),
    /** Sum of reservation and settlement amounts (negative: credits used). */
    usageSum: credits('usage_sum').notNull().default(0),
    /** Sum and count of the tenant's own grants (tenant rows only). */
    grantSum: credits('grant_sum').notNull().default(0),
    grantCount: integer('grant_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.scopeKind, t.scopeId, t.period] })],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
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
  memberId: integer('member_id')
    .notNull()
    .references(() => members.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const categories = pgTable('categories', {
  id: id(),
  tenantId: tenantId(),
  koName: text('ko_name').notNull(),
  enName: text('en_name').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const llmModels = pgTable(
  'llm_models',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    displayName: text('display_name').notNull(),
    /** Key of the provider registry: `demo` or `openai-compatible`. */
    provider: text('provider').notNull(),
    providerModelId: text('provider_model_id').notNull(),
    contextLimit: integer('context_limit').notNull(),
    /**
     * The longest answer the model gives, in tokens (reasoning included): every call sets it as the
     * output limit, and a send reserves credits for an answer this long (DESIGN §7).
     */
    maxOutputTokens: integer('max_output_tokens').notNull().default(4096),
    inputCostPer10k: credits('input_cost_per_10k').notNull(),
    outputCostPer10k: credits('output_cost_per_10k').notNull(),
    webSearchCostPer10k: credits('web_search_cost_per_10k').notNull().default(0),
    releaseDate: date('release_date'),
    isLowLlm: boolean('is_low_llm').notNull().default(false),
    /** Usable without credits when the tenant's plan has is_low_llm_free. */
    isUnlimited: boolean('is_unlimited').notNull().default(false),
    /** Reasons when asked (thinking mode): the thinking button is offered and reasoning is requested. */
    supportsReasoning: boolean('supports_reasoning').notNull().default(false),
    /** Offered in the Studio: the operator may keep a model for chat only (its chatbots keep working). */
    chatbotAllowed: boolean('chatbot_allowed').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('llm_models_name_idx').on(t.tenantId, t.name)],
);

export const modelGroupPermissions = pgTable(
  'model_group_permissions',
  {
    tenantId: tenantId(),
    llmModelId: integer('llm_model_id')
      .notNull()
      .references(() => llmModels.id, { onDelete: 'cascade' }),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
    isAvailable: boolean('is_available').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.llmModelId, t.memberGroupId] })],
);

export const chatbots = pgTable(
  'chatbots',
  {
    id: id(),
    tenantId: tenantId(),
    hashId: text('hash_id').notNull().unique(),
    /** Hash id of the public link, when the author set one. */
    publicHashId: text('public_hash_id').unique(),
    koName: text('ko_name').notNull().default(''),
    enName: text('en_name').notNull().default(''),
    profileImageUrl: text('profile_image_url'),
    /** The uploaded picture behind profile_image_url: served without a token (services/files public rule). */
    profileImageFileId: integer('profile_image_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
    koKeyFeatures: text('ko_key_features').notNull().default(''),
    enKeyFeatures: text('en_key_features').notNull().default(''),
    systemInstructions: text('system_instructions').notNull().default(''),
    temperature: numeric('temperature', { precision: 4, scale: 2, mode: 'number' }).notNull().default(0.7),
    topP: numeric('top_p', { precision: 4, scale: 2, mode: 'number' }).notNull().default(1),
    llmModelId: integer('llm_model_id')
      .notNull()
      .references(() => llmModels.id),
    creatorId: integer('creator_id').references(() => members.id, { onDelete: 'set null' }),
    isPublic: boolean('is_public').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    waitingPublish: boolean('waiting_publish').notNull().default(false),
    publishStatus: publishStatusEnum('publish_status').notNull().default('none'),
    publishFeedback: text('publish_feedback'),
    /** When the pending publish request was made (spec §3 public_queue); null when none is pending. */
    publishRequestedAt: timestamp('publish_requested_at', { withTimezone: true }),
    /** Default chatbots: the member groups whose members start with it (spec §3 default_member_groups). */
    defaultMemberGroupIds: integer('default_member_group_ids').array().notNull().default(sql`'{}'::integer[]`),
    messageCount: integer('message_count').notNull().default(0),
    tokenCount: integer('token_count').notNull().default(0),
    monthTokenCount: integer('month_token_count').notNull().default(0),
    /** `YYYY-MM` the month_token_count belongs to; a new month starts it again. */
    monthTokenPeriod: text('month_token_period'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastChatAt: timestamp('last_chat_at', { withTimezone: true }),
  },
  (t) => [index('chatbots_tenant_idx').on(t.tenantId, t.isDefault)],
);

export const chatbotCategories = pgTable(
  'chatbot_categories',
  {
    tenantId: tenantId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.categoryId] })],
);

/** Groups that may see a chatbot; a chatbot without rows is visible to the whole tenant. */
export const chatbotMemberGroups = pgTable(
  'chatbot_member_groups',
  {
    tenantId: tenantId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
    /** For default chatbots: the group gets it among its defaults. */
    isDefaultForGroup: boolean('is_default_for_group').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.memberGroupId] })],
);

export const files = pgTable('files', {
  id: id(),
  tenantId: tenantId(),
  memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  storageKey: text('storage_key').notNull(),
  accessLevel: text('access_level', { enum: ['public', 'private'] }).notNull().default('public'),
  shouldExpire: boolean('should_expire').notNull().default(true),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  parsedPercentage: integer('parsed_percentage'),
  /** Where text extraction stands: images are `parsed` at once (they go to the model as pictures). */
  parseStatus: text('parse_status', { enum: ['parsing', 'parsed', 'failed'] }).notNull().default('parsing'),
  chatbotId: integer('chatbot_id').references(() => chatbots.id, { onDelete: 'set null' }),
  sessionId: integer('session_id').references((): AnyPgColumn => sessions.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * Text parsed out of a file, in reading order: one row per page (PDF, slides), sheet (spreadsheets)
 * or section (other documents). Written by the file parsing job; read to give a file's content to
 * the model and to index it for retrieval.
 */
export const fileSections = pgTable(
  'file_sections',
  {
    id: id(),
    tenantId: tenantId(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    /** 1-based page or slide number, when the format has pages. */
    page: integer('page'),
    /** Sheet name or section heading, when the format has one. */
    heading: text('heading'),
    text: text('text').notNull(),
  },
  (t) => [index('file_sections_file_idx').on(t.fileId, t.ordinal)],
);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Passages of a file's parsed text (file_sections) for retrieval: a few hundred characters each,
 * with the page or section they came from. Rebuilt whole by `indexFile` (server/retrieval).
 * `embedding` (unit length, so a dot product is the cosine) is set only when EMBEDDING_* is configured.
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    id: id(),
    tenantId: tenantId(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    page: integer('page'),
    section: text('section'),
    text: text('text').notNull(),
    /** Full-text search vector of section and text, kept by PostgreSQL itself. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('english', coalesce(section, '') || ' ' || text)`),
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
  },
  (t) => [index('document_chunks_file_idx').on(t.fileId, t.ordinal)],
);

export const chatbotDocuments = pgTable('chatbot_documents', {
  id: id(),
  tenantId: tenantId(),
  chatbotId: integer('chatbot_id')
    .notNull()
    .references(() => chatbots.id, { onDelete: 'cascade' }),
  fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Recently used non-default chatbots of a member (at most RECENT_CHATBOTS_KEPT are shown). */
export const recentChatbots = pgTable(
  'recent_chatbots',
  {
    tenantId: tenantId(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.chatbotId] })],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tenantId: tenantId(),
    hashId: text('hash_id').notNull().unique(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    title: text('title'),
    isPublic: boolean('is_public').notNull().default(false),
    /**
     * Started by a signed-out visitor on a public chatbot: held by the chatbot's creator (whose
     * credits pay) but not one of their chats, and public from the start so its link keeps working.
     */
    isVisitor: boolean('is_visitor').notNull().default(false),
    /** Set once a message of the session carries files, so a send in a session without any skips looking for them. */
    hasFiles: boolean('has_files').notNull().default(false),
    /** A Studio test chat (`is_test`): its author's only, never listed in My chats. */
    isTest: boolean('is_test').notNull().default(false),
    /** One call of the OpenAI-compatible API with an API key: never listed in My chats. */
    isApi: boolean('is_api').notNull().default(false),
    lastChatAt: timestamp('last_chat_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_member_idx').on(t.tenantId, t.memberId, t.lastChatAt)],
);

export const sessionMessages = pgTable(
  'session_messages',
  {
    id: id(),
    tenantId: tenantId(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    speakerType: speakerTypeEnum('speaker_type').notNull(),
    text: text('text').notNull().default(''),
    /** Why a chatbot answer ended early; null when it completed. */
    interrupted: interruptedEnum('interrupted'),
    llmModelId: integer('llm_model_id').references(() => llmModels.id, { onDelete: 'set null' }),
    /** The provider's count once the answer is saved; the send's estimate while it streams (what a sweep charges). */
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    /** The model's reasoning in thinking mode, and how long it took. */
    reasoning: text('reasoning'),
    reasoningMs: integer('reasoning_ms'),
    /** Sources cited by the answer (shared/api/chat `Citation`), in order. */
    citations: jsonb('citations').$type<Citation[]>().notNull().default([]),
    /** True from the answer's placeholder until its outcome is saved (by its server, or by the sweep once its lease expired). */
    streaming: boolean('streaming').notNull().default(false),
    /**
     * The server process streaming the answer (services/liveAnswers). Cleared when that process saves
     * the answer; kept on an answer another process swept, naming the process that lost it.
     */
    streamOwner: text('stream_owner'),
    /** Until when the answer's owner holds it; renewed while it streams, after which any process may sweep it. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('session_messages_session_idx').on(t.sessionId, t.id),
    // Few rows are ever streaming, so the sweep for answers whose lease expired reads only these.
    index('session_messages_lease_idx').on(t.leaseExpiresAt).where(sql`${t.streaming}`),
  ],
);

export const sessionMessageFiles = pgTable(
  'session_message_files',
  {
    tenantId: tenantId(),
    messageId: integer('message_id')
      .notNull()
      .references(() => sessionMessages.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] })],
);

export const announcements = pgTable(
  'announcements',
  {
    id: id(),
    tenantId: tenantId(),
    content: text('content').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('announcements_tenant_idx').on(t.tenantId, t.createdAt)],
);

export const invitations = pgTable('invitations', {
  id: id(),
  tenantId: tenantId(),
  invitationHashId: text('invitation_hash_id').notNull().unique(),
  email: text('email').notNull(),
  name: text('name'),
  temporaryPasswordHash: text('temporary_password_hash').notNull(),
  memberGroupId: integer('member_group_id').references(() => memberGroups.id, { onDelete: 'set null' }),
  invitedById: integer('invited_by_id').references(() => members.id, { onDelete: 'set null' }),
  status: invitationStatusEnum('status').notNull().default('pending'),
  /** Custom-field values and SSO id from a member upload, given to the member on accept. */
  customFieldValues: jsonb('custom_field_values').$type<Array<{ customFieldId: number; value: string }>>(),
  ssoId: text('sso_id'),
  createdAt: createdAt(),
});

export const policies = pgTable('policies', {
  id: id(),
  tenantId: tenantId(),
  policyName: text('policy_name').notNull(),
  kind: policyKindEnum('kind').notNull(),
  isMandatory: boolean('is_mandatory').notNull().default(true),
  markdownContent: text('markdown_content'),
  videoUrl: text('video_url'),
  fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const policyAgreements = pgTable(
  'policy_agreements',
  {
    tenantId: tenantId(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    agreedAt: timestamp('agreed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.memberId] })],
);

export const ssoWhitelist = pgTable(
  'sso_whitelist',
  {
    id: id(),
    tenantId: tenantId(),
    ssoPlatformId: integer('sso_platform_id').references(() => ssoPlatforms.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sso_whitelist_email_idx').on(t.tenantId, t.email)],
);

export const restrictedWords = pgTable(
  'restricted_words',
  {
    id: id(),
    tenantId: tenantId(),
    word: text('word').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('restricted_words_word_idx').on(t.tenantId, t.word)],
);

export const piiSettings = pgTable('pii_settings', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  phone: piiActionEnum('phone').notNull().default('off'),
  email: piiActionEnum('email').notNull().default('off'),
  residentNumber: piiActionEnum('resident_number').notNull().default('off'),
  creditCard: piiActionEnum('credit_card').notNull().default('off'),
  /** E.164 numbers with a country code (ours, issue 21): the spec's `phone` is the 11-digit Korean mobile. */
  internationalPhone: piiActionEnum('international_phone').notNull().default('off'),
  updatedAt: updatedAt(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    /** SHA-256 (hex) of the whole key: the key itself is shown once, at creation, and never stored. */
    keyHash: text('key_hash').notNull().unique(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Null: never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_member_idx').on(t.tenantId, t.memberId, t.createdAt)],
);

/** The chatbots a key may call (at least one); a chatbot deleted later leaves the key's list. */
export const apiKeyChatbots = pgTable(
  'api_key_chatbots',
  {
    tenantId: tenantId(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.chatbotId] })],
);

export const taskModes = pgTable('task_modes', {
  id: id(),
  tenantId: tenantId(),
  /** A task mode has at least one of its two names; the missing one is '' (as a member group's). */
  koName: text('ko_name').notNull().default(''),
  enName: text('en_name').notNull().default(''),
  instructions: text('instructions').notNull().default(''),
  createdAt: createdAt(),
});

export const backgroundTasks = pgTable(
  'background_tasks',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    status: taskStatusEnum('status').notNull().default('running'),
    result: jsonb('result'),
    error: text('error'),
    /** Why it failed in words its owner may read (`TaskFailure`); `error` keeps the internals. */
    errorCode: text('error_code'),
    /** Rows done and rows to do, for jobs that report progress. */
    processed: integer('processed'),
    total: integer('total'),
    /**
     * The FileStore key of a file the task owns (an export's output, an upload's input); the task
     * file sweep (services/taskFiles.ts) deletes it once the task's retention has passed and clears this.
     */
    fileKey: text('file_key'),
    createdAt: createdAt(),
    /** From the server's clock (src/server/clock.ts), so tests can age a task by moving it. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  // The sweep's question: finished tasks that still own a file, oldest first.
  (t) => [index('background_tasks_file_sweep_idx').on(t.finishedAt).where(sql`${t.fileKey} IS NOT NULL`)],
);

/**
 * A member upload's checkpoint (docs/decisions/0063-member-export-and-bulk-upload.md): written in
 * the transaction of each batch, so a restarted job resumes after the last committed batch.
 */
export const memberUploads = pgTable('member_uploads', {
  taskId: integer('task_id')
    .primaryKey()
    .references(() => backgroundTasks.id, { onDelete: 'cascade' }),
  tenantId: tenantId(),
  /** Data rows of the file already handled (invited or failed). */
  processed: integer('processed').notNull().default(0),
  invited: integer('invited').notNull().default(0),
  failedRows: jsonb('failed_rows').$type<Array<{ row: number; email: string; reason: string; field: string | null }>>().notNull().default([]),
  /** Set with the upload's audit row: a rerun after that has only the result left to give. */
  completedAt: timestamp('completed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const usageRecords = pgTable(
  'usage_records',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    memberGroupId: integer('member_group_id').references(() => memberGroups.id, { onDelete: 'set null' }),
    chatbotId: integer('chatbot_id').references(() => chatbots.id, { onDelete: 'set null' }),
    sessionId: integer('session_id').references(() => sessions.id, { onDelete: 'set null' }),
    messageId: integer('message_id').references(() => sessionMessages.id, { onDelete: 'set null' }),
    llmModelId: integer('llm_model_id').references(() => llmModels.id, { onDelete: 'set null' }),
    modelName: text('model_name').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    webSearchCount: integer('web_search_count').notNull().default(0),
    /** Images generated (image mode); `model_name` then names the image model. */
    imageCount: integer('image_count').notNull().default(0),
    credits: credits('credits').notNull(),
    /** A Studio test chat: charged to the tenant's pool, not to the member's or the group's monthly quota. */
    isTest: boolean('is_test').notNull().default(false),
    /** The API key of an OpenAI-compatible call; null for the app's own chats. */
    apiKeyId: integer('api_key_id').references((): AnyPgColumn => apiKeys.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('usage_records_tenant_idx').on(t.tenantId, t.createdAt),
    // A key's usage this month (the Developers page).
    index('usage_records_api_key_idx').on(t.apiKeyId, t.createdAt),
    // A member's usage this month (GET /members/{id}/usage/).
    index('usage_records_member_idx').on(t.memberId, t.createdAt),
    // An answer is metered once (its web search has a row of its own): whichever of its server and
    // the sweep saves it first wins, the other's statement fails whole (services/chat writeAnswer).
    uniqueIndex('usage_records_answer_idx').on(t.messageId).where(sql`${t.webSearchCount} = 0`),
  ],
);

export const errorLogs = pgTable('error_logs', {
  id: id(),
  tenantId: tenantId(),
  memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
  message: text('message').notNull(),
  source: text('source').notNull(),
  stack: text('stack'),
  url: text('url').notNull(),
  userAgent: text('user_agent').notNull(),
  clientTimestamp: text('client_timestamp').notNull(),
  errorId: text('error_id').notNull(),
  attachments: jsonb('attachments').$type<{ title: string; text: string }[]>().notNull().default([]),
  createdAt: createdAt(),
});

export const verificationCodes = pgTable('verification_codes', {
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
}, (t) => [index('verification_codes_email_idx').on(t.tenantId, t.email, t.createdAt)]);

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

/**
 * Fixed-window request counters shared by every server process (services/rateLimit.ts), keyed by
 * what is limited and who asks (e.g. `sign-in:203.0.113.9`). Not per tenant: a client is limited
 * across all of them. Expired rows are reset in place or swept.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  /** Failure keys only (sign-in delays): the last failure, on the server clock; null for request counts. */
  lastAt: timestamp('last_at', { withTimezone: true }),
});

/** What members wrote in the contact modal (spec §2), kept whether or not the mail to support went out. */
export const inquiries = pgTable(
  'inquiries',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    inquiry: text('inquiry').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    /** When the mail to the support address was written to the mail outbox; null when no address was set. */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('inquiries_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Every admin write (DESIGN §5, issue 11): who did what to which row, and the change, inserted in
 * the same transaction as the change (services/auditLog.ts). No endpoint updates or deletes a row.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    tenantId: tenantId(),
    /** The admin who acted; null once that member is deleted (their name and email stay below). */
    actorId: integer('actor_id').references(() => members.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email').notNull(),
    /** One of AUDIT_ACTIONS in shared/domain/audit.ts, e.g. `member.update`. */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** What changed: `{ field: { from, to } }` for edits, the created or deleted values otherwise. */
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_tenant_idx').on(t.tenantId, t.createdAt), index('audit_log_action_idx').on(t.tenantId, t.action)],
);

/**
 * Every mail the server sends (docs/decisions/0004-mail-outbox.md): rendered and written by the
 * transaction that decides it, then sent once by the mail sender (mail/outbox.ts) of any process.
 * `pending` waits for `next_attempt_at`; `sending` is claimed until `next_attempt_at` (the lease),
 * after which another sender may take it again; `sent` and `failed` are final.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    tenantId: tenantId(),
    template: text('template').$type<MailTemplateName>().notNull(),
    recipient: text('recipient').notNull(),
    language: languageEnum('language').notNull(),
    subject: text('subject').notNull(),
    /** Emptied once sent over SMTP: codes, links and temporary passwords are not kept longer than needed. */
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** The Message-ID header, fixed when the row is written: a mail sent twice (a crash after SMTP accepted it) carries the same one. */
    messageId: text('message_id').notNull().unique(),
    status: mailStatusEnum('status').notNull().default('pending'),
    /** Claims so far; also the fence of a claim (a sender marks only the row it claimed). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index('mail_outbox_created_idx').on(t.createdAt),
  ],
);

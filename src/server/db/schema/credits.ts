/** The credit ledger, balances and usage records. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, date, index, integer, pgEnum, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { apiKeys } from './apiKeys';
import { sessions, sessionMessages } from './chat';
import { llmModels, chatbots } from './chatbots';
import { id, createdAt, credits } from './columns';
import { memberGroups, members } from './members';
import { tenantId } from './tenants';

export const ledgerKindEnum = pgEnum('ledger_kind', ['grant', 'reservation', 'settlement']);

export const creditScopeEnum = pgEnum('credit_scope', ['tenant', 'group', 'member']);

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
    /** A tenant's monthly plan grant names its period (`YYYY-MM`): one per tenant and month (domains/credits/periods). */
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
    index('credit_ledger_message_idx')
      .on(t.messageId)
      .where(sql`${t.messageId} is not null`),
    // The sweep's look for reservations whose answer was deleted while it streamed (releaseOrphanedReservations).
    index('credit_ledger_orphan_reservation_idx')
      .on(t.createdAt)
      .where(sql`${t.kind} = 'reservation' and ${t.messageId} is null`),
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
    // the sweep saves it first wins, the other's statement fails whole (domains/chat/service writeAnswer).
    uniqueIndex('usage_records_answer_idx')
      .on(t.messageId)
      .where(sql`${t.webSearchCount} = 0`),
  ],
);

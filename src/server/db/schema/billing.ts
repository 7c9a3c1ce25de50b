/** Plans, payment methods, memberships and payments (services in domains/billing). */
import { sql } from 'drizzle-orm';
import { date, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, credits } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

/** `ended`: the period ran out after a cancellation or after the last failed renewal (docs/decisions/0057-plans-and-membership.md). */
export const membershipStatusEnum = pgEnum('membership_status', ['active', 'cancelled', 'ended']);

export const paymentStatusEnum = pgEnum('payment_status', ['pending', 'paid', 'failed']);

export const paymentKindEnum = pgEnum('payment_kind', ['subscribe', 'upgrade', 'renewal']);

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
    uniqueIndex('payments_one_pending_per_owner_idx')
      .on(t.ownerKey)
      .where(sql`status = 'pending'`),
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

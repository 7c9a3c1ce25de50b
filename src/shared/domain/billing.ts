/**
 * Plans, membership and payments (spec §3, §4; docs/decisions/0057-plans-and-membership.md).
 */

/** The card providers the server can charge through; `demo` is the offline default. */
export const PAYMENT_PROVIDERS = ['demo', 'portone'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const MEMBERSHIP_STATUSES = ['active', 'cancelled', 'ended'] as const;
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed'] as const;
export const PAYMENT_KINDS = ['subscribe', 'upgrade', 'renewal'] as const;

/**
 * A renewal that fails is tried again this many days after the payment date (each failure mails the
 * payer); when the last retry fails too the membership ends. So three charges in all.
 */
export const RENEWAL_RETRY_DAYS = [1, 3] as const;

/** Purchase history page size (same default as the other lists, spec §9). */
export const PAYMENTS_PAGE_SIZE = 10;

/** Test cards of the demo provider (the usual ones): the first is approved, the second declined. */
export const DEMO_TEST_CARDS = { approved: '4242424242424242', declined: '4000000000000002' } as const;

/** Card numbers are 13 to 19 digits; spaces and dashes typed between groups are ignored. */
export const cardDigits = (value: string): string => value.replace(/[\s-]/g, '');

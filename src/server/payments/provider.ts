/**
 * The card provider behind plans and memberships (docs/decisions/0057-plans-and-membership.md,
 * 0059-payments-portone.md): registers a card as a billing key, charges it, looks a charge up and checks webhooks.
 * Card numbers never reach the database: only the billing key and a masked number.
 */
import type { z } from 'zod';
import type { BillingProvider, providerResultSchema } from '../../shared/api/billing';
import type { PaymentProviderName } from '../../shared/domain/billing';

export type ProviderResult = z.output<typeof providerResultSchema>;

export interface RegisteredCard {
  billingKey: string;
  cardName: string;
  /** e.g. `**** **** **** 4242`, or the provider's own masking. */
  cardNumberMasked: string;
  type: string;
}

export interface Customer {
  id: string;
  email: string;
  name: string;
}

export interface ChargeRequest {
  billingKey: string;
  /** Ours, unique per attempt: the provider's payment id, so a repeated call cannot charge twice. */
  orderId: string;
  orderName: string;
  amount: number;
  currency: 'KRW';
  customer: Customer;
}

export type ChargeOutcome =
  { status: 'paid'; providerPaymentId: string; receiptUrl: string | null } | { status: 'failed'; reason: string } | { status: 'pending' };

export interface WebhookDelivery {
  /** The provider's delivery id: a replay carries the same one. */
  eventId: string;
  type: string;
  /** Our order id the event is about, when it is about a payment. */
  orderId: string | null;
}

/** The card was refused (registration or charge): answered 402 with the provider's reason. */
export class CardDeclinedError extends Error {
  override name = 'CardDeclinedError';
}

/** The provider's answer did not check out (unknown billing key, another store's): 400. */
export class InvalidPaymentResultError extends Error {
  override name = 'InvalidPaymentResultError';
}

/** A webhook whose signature, timestamp or shape is wrong. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** What the browser needs to open the provider's card window (`GET /member-billing-plans/`). */
  readonly browser: BillingProvider;
  registerCard(result: ProviderResult, customer: Customer): Promise<RegisteredCard>;
  /** `failed` for a declined card; throws when the provider cannot be reached (the caller retries). */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** What the provider knows of one of our orders; null when it never saw it. */
  lookup(orderId: string): Promise<ChargeOutcome | null>;
  /** Checks a webhook's signature against its raw body; throws WebhookVerificationError. */
  verifyWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>, now: Date): WebhookDelivery;
}

/** `**** **** **** 4242` from the last four digits. */
export const maskCardNumber = (digits: string): string => `**** **** **** ${digits.slice(-4)}`;

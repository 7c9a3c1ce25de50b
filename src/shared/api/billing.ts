import { z } from 'zod';
import { defineEndpoint, type ErrorDeclaration } from './endpoint';
import { idTextSchema, isoDateTime, pageQuerySchema, paginatedSchema } from './common';
import { MEMBERSHIP_STATUSES, PAYMENTS_PAGE_SIZE, PAYMENT_KINDS, PAYMENT_STATUSES, cardDigits } from '../domain/billing';

/** spec §3 Plan. */
export const billingPlanSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  krw_month_price: z.number().int(),
  /** Credits granted with each monthly payment. */
  credit: z.number(),
});
export type BillingPlan = z.infer<typeof billingPlanSchema>;

/**
 * Which card form the client shows. The demo's is our own form; PortOne's is its browser SDK, loaded
 * from `sdk_url` only when a card is registered, with the public store id and channel key it needs.
 */
export const billingProviderSchema = z.discriminatedUnion('name', [
  z.object({ name: z.literal('demo') }),
  z.object({ name: z.literal('portone'), store_id: z.string(), channel_key: z.string(), sdk_url: z.url({ protocol: /^https?$/ }) }),
]);
export type BillingProvider = z.infer<typeof billingProviderSchema>;

export const billingPlansSchema = z.object({
  items: z.array(billingPlanSchema),
  provider: billingProviderSchema,
});

/** spec §3 Payment method: only the masked number is ever stored or shown. */
export const paymentMethodSchema = z.object({
  id: z.number().int(),
  card_name: z.string(),
  card_number: z.string().describe('masked, e.g. **** **** **** 4242'),
  type: z.string(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/**
 * spec §3 Membership, seen by the caller. `scope` says whose it is: an individual's own (`member`)
 * or the organisation's (`tenant`, paid by its administrators). `can_manage` is false for an
 * organisation member who is not an administrator: they are told to contact their administrator.
 * `membership` is null when nothing is billed (a plan set up without a subscription, or none).
 */
export const membershipSchema = z.object({
  scope: z.enum(['member', 'tenant']),
  can_manage: z.boolean(),
  /** The plan in effect (an organisation's plan may be set without a paid subscription). */
  current_plan: billingPlanSchema.nullable(),
  membership: z
    .object({
      id: z.number().int(),
      plan: billingPlanSchema,
      /** The plan taking over at the next payment date (a pending downgrade). */
      next_plan: billingPlanSchema.nullable(),
      payment_method: paymentMethodSchema.nullable(),
      price: z.number().int(),
      currency: z.string(),
      status: z.enum(MEMBERSHIP_STATUSES),
      next_payment_date: z.string().nullable().describe('YYYY-MM-DD; a cancelled membership ends on it'),
      /** Renewal charges that failed since the last success (retries pending while > 0). */
      failed_attempts: z.number().int(),
      next_attempt_at: isoDateTime.nullable(),
    })
    .nullable(),
  /** Registered cards the caller may subscribe with again. */
  payment_methods: z.array(paymentMethodSchema),
});
export type Membership = z.infer<typeof membershipSchema>;

export const planParamsSchema = z.object({ planId: idTextSchema });

/**
 * Body of `POST /member-billing-plans/{planId}/`: the card provider's result. The demo provider
 * takes the card itself (it only tokenises it and keeps the masked number); PortOne's browser SDK
 * (`requestIssueBillingKey`) returns a billing key, which the server looks up before trusting it.
 */
export const providerResultSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('demo'),
    card_number: z
      .string()
      .max(40)
      .transform(cardDigits)
      .pipe(z.string().regex(/^\d{13,19}$/, 'card_number_invalid')),
    expiry: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'expiry_invalid'),
    cvc: z.string().regex(/^\d{3,4}$/, 'cvc_invalid'),
  }),
  z.object({
    provider: z.literal('portone'),
    billing_key: z.string().min(1).max(200),
    transaction_type: z.string().max(50).optional(),
    code: z.string().max(200).optional(),
    message: z.string().max(1000).optional(),
  }),
]);
export type ProviderResult = z.input<typeof providerResultSchema>;

export const registerAndSubscribeQuerySchema = z.object({
  /** A registered card this one replaces (its row keeps its id); omitted: a new payment method. */
  payment_method_id: idTextSchema.optional(),
});

export const subscribeBodySchema = z.object({
  /** Needed when there is no active membership to take the card from. */
  payment_method_id: z.number().int().positive().optional(),
});

export const paymentSchema = z.object({
  id: z.number().int(),
  kind: z.enum(PAYMENT_KINDS),
  status: z.enum(PAYMENT_STATUSES),
  plan: billingPlanSchema,
  price: z.number().int(),
  currency: z.string(),
  /** Credits granted with the payment and their validity period (spec §3 Credit purchase). */
  credit: z.number(),
  usage_start_date: z.string().nullable(),
  usage_end_date: z.string().nullable(),
  receipt_url: z.string().nullable(),
  failure_reason: z.string().nullable(),
  created_at: isoDateTime,
});
export type Payment = z.infer<typeof paymentSchema>;

export const listBillingPlans = defineEndpoint({
  method: 'GET',
  path: '/member-billing-plans/',
  access: 'member',
  errors: {},
  response: billingPlansSchema,
  summary: "The tenant's plans and the card provider the client pays through",
  tags: ['billing'],
});

/** The refusals of a subscription, whether the card is registered with it or was before. */
const SUBSCRIBE_ERRORS = {
  400: ['invalid_payment_result'],
  402: ['card_declined'],
  403: ['billing_admin_only'],
  404: ['not_found'],
  409: ['already_subscribed', 'payment_in_progress'],
  422: ['payment_method_required'],
  502: ['payment_provider_unavailable'],
} as const satisfies ErrorDeclaration;

export const registerCardAndSubscribe = defineEndpoint({
  method: 'POST',
  path: '/member-billing-plans/:planId/',
  access: 'member',
  errors: SUBSCRIBE_ERRORS,
  params: planParamsSchema,
  query: registerAndSubscribeQuerySchema,
  body: providerResultSchema,
  response: membershipSchema,
  summary: "Registers the card (the provider's billing key) and subscribes to the plan",
  tags: ['billing'],
});

export const subscribeToPlan = defineEndpoint({
  method: 'POST',
  path: '/member-billing-plans/:planId/subscribe/',
  access: 'member',
  errors: SUBSCRIBE_ERRORS,
  params: planParamsSchema,
  body: subscribeBodySchema,
  response: membershipSchema,
  summary: 'Subscribes with a registered card, or changes plan (upgrade now, downgrade at the next payment date)',
  tags: ['billing'],
});

export const getMembership = defineEndpoint({
  method: 'GET',
  path: '/membership/',
  access: 'member',
  errors: {},
  response: membershipSchema,
  summary: "The caller's membership: their own (individual) or their organisation's",
  tags: ['billing'],
});

export const cancelMembership = defineEndpoint({
  method: 'POST',
  path: '/membership/cancel/',
  access: 'member',
  errors: { 403: ['billing_admin_only'], 404: ['no_membership'], 409: ['already_cancelled'] },
  response: membershipSchema,
  summary: 'Cancels the membership: it ends at the next payment date',
  tags: ['billing'],
});

export const resumeMembership = defineEndpoint({
  method: 'POST',
  path: '/membership/resume/',
  access: 'member',
  errors: { 403: ['billing_admin_only'], 404: ['no_membership'], 409: ['not_cancelled'] },
  response: membershipSchema,
  summary: 'Undoes the cancellation',
  tags: ['billing'],
});

export const listPayments = defineEndpoint({
  method: 'GET',
  path: '/membership/payments/',
  access: 'member',
  errors: { 403: ['billing_admin_only'] },
  query: pageQuerySchema(PAYMENTS_PAGE_SIZE),
  response: paginatedSchema(paymentSchema),
  summary: 'Purchase history of the membership the caller manages, newest first',
  tags: ['billing'],
});

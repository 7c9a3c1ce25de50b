/**
 * PortOne V2 (api.portone.io) billing keys: the browser SDK's `requestIssueBillingKey` gives the
 * client a billing key; the server checks it (`GET /billing-keys/{key}`), charges it
 * (`POST /payments/{paymentId}/billing-key`, our order id as the payment id so a repeat cannot
 * charge twice), looks payments up (`GET /payments/{paymentId}`) and verifies webhooks (Standard
 * Webhooks). docs/decisions/0059-payments-portone.md says why PortOne.
 */
import { z } from 'zod';
import { CardDeclinedError, type ChargeOutcome, InvalidPaymentResultError, type PaymentProvider, WebhookVerificationError, maskCardNumber } from './provider';
import { verifyStandardWebhook } from './standardWebhooks';

export interface PortOneSettings {
  apiSecret: string;
  storeId: string;
  /** The channel (PG contract) the browser issues billing keys on; also sent with charges. */
  channelKey: string;
  /** The browser SDK the plans page loads. */
  sdkUrl: string;
  webhookSecret: string | null;
  /** https://api.portone.io; tests point it at the fake on loopback. */
  apiBase: string;
  timeoutMs?: number;
}

const billingKeyInfoSchema = z.object({
  status: z.string(),
  billingKey: z.string(),
  storeId: z.string().optional(),
  methods: z
    .array(
      z.object({
        type: z.string(),
        card: z
          .object({ name: z.string().optional(), number: z.string().optional(), type: z.string().optional(), publisher: z.string().optional() })
          .optional(),
      }),
    )
    .optional(),
});

const paymentSchema = z.object({
  status: z.string(),
  id: z.string(),
  transactionId: z.string().optional(),
  receiptUrl: z.string().optional().nullable(),
  failure: z.object({ reason: z.string().optional(), pgMessage: z.string().optional() }).optional().nullable(),
});

const errorSchema = z.object({ type: z.string().optional(), message: z.string().optional() });

const webhookSchema = z.object({ type: z.string(), data: z.object({ paymentId: z.string().optional() }).passthrough().optional() });

export function createPortOneProvider(settings: PortOneSettings): PaymentProvider {
  const timeoutMs = settings.timeoutMs ?? 15_000;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const url = new URL(path, settings.apiBase);
    if (method === 'GET') url.searchParams.set('storeId', settings.storeId);
    const response = await fetch(url, {
      method,
      headers: { authorization: `PortOne ${settings.apiSecret}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    // The provider itself failing is not a decline: throw, so a job retries and a request answers 502.
    if (response.status >= 500 && response.status !== 502) throw new Error(`PortOne answered ${response.status}`);
    if (response.status === 401 || response.status === 403) throw new Error(`PortOne refused the API secret (${response.status})`);
    return { status: response.status, json };
  }

  function outcomeOf(payment: z.infer<typeof paymentSchema>): ChargeOutcome {
    if (payment.status === 'PAID') return { status: 'paid', providerPaymentId: payment.transactionId ?? payment.id, receiptUrl: payment.receiptUrl ?? null };
    if (payment.status === 'FAILED' || payment.status === 'CANCELLED') {
      return { status: 'failed', reason: payment.failure?.pgMessage ?? payment.failure?.reason ?? payment.status };
    }
    return { status: 'pending' };
  }

  async function lookup(orderId: string): Promise<ChargeOutcome | null> {
    const { status, json } = await call('GET', `/payments/${encodeURIComponent(orderId)}`);
    if (status === 404) return null;
    if (status !== 200) throw new Error(`PortOne payment lookup answered ${status}`);
    return outcomeOf(paymentSchema.parse(json));
  }

  return {
    name: 'portone',
    browser: { name: 'portone', store_id: settings.storeId, channel_key: settings.channelKey, sdk_url: settings.sdkUrl },

    async registerCard(result) {
      if (result.provider !== 'portone') throw new InvalidPaymentResultError('This server takes cards through PortOne.');
      // The SDK reports a refused card or a closed window with a code instead of a key.
      if (result.code) throw new CardDeclinedError(result.message ?? result.code);
      const { status, json } = await call('GET', `/billing-keys/${encodeURIComponent(result.billing_key)}`);
      if (status === 404) throw new InvalidPaymentResultError('PortOne does not know this billing key.');
      if (status !== 200) throw new InvalidPaymentResultError(errorSchema.safeParse(json).data?.message ?? 'PortOne refused the billing key.');
      const info = billingKeyInfoSchema.parse(json);
      if (info.status !== 'ISSUED' || (info.storeId && info.storeId !== settings.storeId))
        throw new InvalidPaymentResultError('The billing key is not usable.');
      const card = info.methods?.find((method) => method.card)?.card;
      const number = card?.number ?? '';
      return {
        billingKey: info.billingKey,
        cardName: card?.name ?? card?.publisher ?? 'Card',
        // PortOne masks the number already (e.g. 53275000****123*); keep the last four otherwise.
        cardNumberMasked: number.includes('*') ? number : maskCardNumber(number.replace(/\D/g, '') || '****'),
        type: card?.type === 'DEBIT' ? 'debit' : 'card',
      };
    },

    async charge(request) {
      const { status, json } = await call('POST', `/payments/${encodeURIComponent(request.orderId)}/billing-key`, {
        storeId: settings.storeId,
        billingKey: request.billingKey,
        channelKey: settings.channelKey,
        orderName: request.orderName,
        // Renewals run without a signed-in payer: no email then, rather than an empty one PortOne would refuse.
        customer: { id: request.customer.id, ...(request.customer.email ? { email: request.customer.email } : {}), name: { full: request.customer.name } },
        amount: { total: request.amount },
        currency: request.currency,
      });
      if (status === 200) return (await lookup(request.orderId)) ?? { status: 'pending' };
      const error = errorSchema.safeParse(json).data;
      // The same payment id again (a retried job): what was done is what counts.
      if (status === 409 && error?.type === 'ALREADY_PAID') return (await lookup(request.orderId)) ?? { status: 'pending' };
      return { status: 'failed', reason: error?.message ?? `PortOne answered ${status}` };
    },

    lookup,

    verifyWebhook(rawBody, headers, now) {
      if (!settings.webhookSecret) throw new WebhookVerificationError('PORTONE_WEBHOOK_SECRET is not set.');
      const eventId = verifyStandardWebhook(settings.webhookSecret, rawBody, headers, now);
      const parsed = webhookSchema.safeParse(JSON.parse(rawBody));
      if (!parsed.success) throw new WebhookVerificationError('Unexpected webhook body.');
      return { eventId, type: parsed.data.type, orderId: parsed.data.data?.paymentId ?? null };
    },
  };
}

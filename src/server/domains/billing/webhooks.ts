/**
 * The payment provider's webhook deliveries: verified, handled once, settled like any other outcome.
 */
import { and, eq } from 'drizzle-orm';
import { payments, paymentWebhookEvents } from '../../db/schema';
import { AppError } from '../../errors';
import { WebhookVerificationError } from '../../payments/provider';
import type { BillingDeps } from './membership';
import { settlePayment } from './payments';

/**
 * A provider webhook: the signature is checked on the raw body, the delivery id is recorded once
 * (a replay answers `replayed` and does nothing), and the payment it names is looked up at the
 * provider, never taken from the body, then settled like any other outcome.
 */
export async function handleWebhook(
  deps: BillingDeps,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ replayed: boolean }> {
  let delivery;
  try {
    delivery = deps.payments.verifyWebhook(rawBody, headers, deps.clock());
  } catch (error) {
    if (error instanceof WebhookVerificationError || error instanceof SyntaxError)
      throw new AppError(401, 'invalid_signature', 'The webhook signature is not valid.');
    throw error;
  }
  const [fresh] = await deps.db
    .insert(paymentWebhookEvents)
    .values({ provider: deps.payments.name, eventId: delivery.eventId })
    .onConflictDoNothing()
    .returning();
  if (!fresh) return { replayed: true };
  try {
    if (delivery.orderId) {
      const [payment] = await deps.db.select().from(payments).where(eq(payments.orderId, delivery.orderId));
      if (payment?.status === 'pending') {
        const outcome = await deps.payments.lookup(delivery.orderId);
        if (outcome) await settlePayment(deps, delivery.orderId, outcome);
      }
    }
  } catch (error) {
    // Not handled: forget the delivery so the provider's redelivery is acted on.
    await deps.db
      .delete(paymentWebhookEvents)
      .where(and(eq(paymentWebhookEvents.provider, deps.payments.name), eq(paymentWebhookEvents.eventId, delivery.eventId)));
    throw error;
  }
  return { replayed: false };
}

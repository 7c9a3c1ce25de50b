/**
 * The offline default: no provider account, no network. It accepts the usual test cards and
 * declines every other number, keeps nothing but a random billing key (the card number is
 * forgotten as soon as it is masked) and approves every charge of a key it issued.
 */
import { randomUUID } from 'node:crypto';
import { DEMO_TEST_CARDS } from '../../shared/domain/billing';
import { CardDeclinedError, InvalidPaymentResultError, type PaymentProvider, WebhookVerificationError, maskCardNumber } from './provider';

/** Test card numbers the demo approves, with the brand it shows. */
const APPROVED_CARDS = new Map<string, string>([
  [DEMO_TEST_CARDS.approved, 'Visa'],
  ['4000056655665556', 'Visa (debit)'],
  ['5555555555554444', 'Mastercard'],
  ['378282246310005', 'American Express'],
]);

const BILLING_KEY_PREFIX = 'demo_bk_';

export function createDemoPaymentProvider(): PaymentProvider {
  return {
    name: 'demo',
    browser: { name: 'demo' },
    async registerCard(result) {
      if (result.provider !== 'demo') throw new InvalidPaymentResultError('This server takes cards through the demo provider.');
      const brand = APPROVED_CARDS.get(result.card_number);
      if (!brand) throw new CardDeclinedError('The card was declined.');
      return { billingKey: `${BILLING_KEY_PREFIX}${randomUUID()}`, cardName: brand, cardNumberMasked: maskCardNumber(result.card_number), type: 'card' };
    },
    async charge(request) {
      if (!request.billingKey.startsWith(BILLING_KEY_PREFIX)) return { status: 'failed', reason: 'Unknown billing key.' };
      return { status: 'paid', providerPaymentId: `demo_pay_${request.orderId}`, receiptUrl: null };
    },
    // The demo settles every charge at once, so there is never anything left to look up.
    async lookup() {
      return null;
    },
    verifyWebhook() {
      throw new WebhookVerificationError('The demo provider sends no webhooks.');
    },
  };
}

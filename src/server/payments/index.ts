import type { ServerConfig } from '../config';
import { createDemoPaymentProvider } from './demo';
import { createPortOneProvider } from './portone';
import type { PaymentProvider } from './provider';

/** PortOne when its API secret and store id are set, else the offline demo provider. */
export function paymentProviderFromConfig(config: ServerConfig): PaymentProvider {
  if (config.PORTONE_API_SECRET && config.PORTONE_STORE_ID) {
    return createPortOneProvider({
      apiSecret: config.PORTONE_API_SECRET,
      storeId: config.PORTONE_STORE_ID,
      channelKey: config.PORTONE_CHANNEL_KEY ?? null,
      webhookSecret: config.PORTONE_WEBHOOK_SECRET ?? null,
      apiBase: config.PORTONE_API_BASE,
    });
  }
  return createDemoPaymentProvider();
}

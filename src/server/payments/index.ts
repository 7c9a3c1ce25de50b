import type { ServerConfig } from '../config';
import { createDemoPaymentProvider } from './demo';
import { createPortOneProvider } from './portone';
import type { PaymentProvider } from './provider';

/** PortOne when its API secret, store id and channel key are set (config.ts wants all three or none), else the offline demo provider. */
export function paymentProviderFromConfig(config: ServerConfig): PaymentProvider {
  if (config.PORTONE_API_SECRET && config.PORTONE_STORE_ID && config.PORTONE_CHANNEL_KEY) {
    return createPortOneProvider({
      apiSecret: config.PORTONE_API_SECRET,
      storeId: config.PORTONE_STORE_ID,
      channelKey: config.PORTONE_CHANNEL_KEY,
      webhookSecret: config.PORTONE_WEBHOOK_SECRET ?? null,
      apiBase: config.PORTONE_API_BASE,
      sdkUrl: config.PORTONE_SDK_URL,
    });
  }
  return createDemoPaymentProvider();
}

/**
 * What the web page's CSP must allow beyond its own origin for the provider's card window: nothing
 * for the demo; for PortOne its SDK script's origin, and the frames its window opens
 * (docs/decisions/0059-payments-portone.md, CSP).
 */
export function paymentCspSources(provider: PaymentProvider, config: ServerConfig): { scriptSrc: string[]; frameSrc: string[] } | null {
  if (provider.browser.name !== 'portone') return null;
  const sdkOrigin = new URL(provider.browser.sdk_url).origin;
  return { scriptSrc: [sdkOrigin], frameSrc: [...new Set([sdkOrigin, ...config.PORTONE_FRAME_SOURCES])] };
}

/**
 * PortOne's browser SDK, loaded on demand from the URL the server names (`GET /member-billing-plans/`
 * `provider.sdk_url`) and only when a card is registered, so no other page runs a third-party script.
 * A tiny loader instead of `@portone/browser-sdk`'s: that one caches a failed load for good (no retry)
 * and takes its URL from a module-wide setter. The types are the part of that package's `dist/v2`
 * (0.1.x: `requestIssueBillingKey`, `IssueBillingKeyRequest`, `IssueBillingKeyResponse`) we use.
 */

export interface IssueBillingKeyRequest {
  storeId: string;
  channelKey: string;
  billingKeyMethod: 'CARD';
  /** Ours, unique per attempt. */
  issueId: string;
  issueName?: string;
  displayAmount?: number;
  currency?: 'KRW';
  customer?: { customerId?: string; fullName?: string; email?: string };
  locale?: 'KO_KR' | 'EN_US' | 'ZH_CN' | 'JA_JP' | 'ES_ES';
}

/** A key, or `code` and `message` when the card window was closed or the PG refused. */
export interface IssueBillingKeyResponse {
  transactionType?: string;
  billingKey?: string;
  code?: string;
  message?: string;
}

export interface PortOneSdk {
  /** Resolves undefined when the window redirected instead of answering (not used: we pass no redirectUrl). */
  requestIssueBillingKey(request: IssueBillingKeyRequest): Promise<IssueBillingKeyResponse | undefined>;
}

declare global {
  interface Window {
    PortOne?: PortOneSdk;
  }
}

/** The script could not be loaded (network, CSP, a wrong URL): nothing was asked of PortOne yet. */
export class PortOneSdkLoadError extends Error {
  override name = 'PortOneSdkLoadError';
}

const loads = new Map<string, Promise<PortOneSdk>>();

/** Adds the SDK's script once; a failed load is forgotten (its tag removed), so the next call tries again. */
export function loadPortOneSdk(url: string): Promise<PortOneSdk> {
  const pending = loads.get(url);
  if (pending) return pending;
  const load = new Promise<PortOneSdk>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = () => {
      script.remove();
      loads.delete(url);
      reject(new PortOneSdkLoadError(`Could not load ${url}`));
    };
    script.src = url;
    script.async = true;
    script.addEventListener('load', () => (window.PortOne ? resolve(window.PortOne) : fail()));
    script.addEventListener('error', fail);
    document.head.appendChild(script);
  });
  loads.set(url, load);
  return load;
}

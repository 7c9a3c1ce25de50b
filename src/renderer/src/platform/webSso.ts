import { apiErrorFromResponse } from '../../../shared/api/apiError';
import { buildPath, type Endpoint } from '../../../shared/api/endpoint';
import { ssoAuthorize } from '../../../shared/api/sso';
import { SSO_WEB_CALLBACK_PATH } from '../../../shared/domain/sso';
import type { SsoIntent, SsoReturn } from './types';

/**
 * The web half of OpenID Connect (loaded only when a member picks a provider): PKCE and state are
 * made here and kept in sessionStorage (this tab only) until the provider sends the browser back.
 */
const KEY_PREFIX = 'sso:';

interface Kept {
  verifier: string;
  platformId: number;
  intent: SsoIntent;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const randomText = (length: number) => base64url(crypto.getRandomValues(new Uint8Array(length)));
const callbackUrl = () => `${window.location.origin}${SSO_WEB_CALLBACK_PATH}`;

export async function startWebSso(
  post: (endpoint: Endpoint, path: string, body: unknown) => Promise<Response>,
  platformId: number,
  intent: SsoIntent,
): Promise<never> {
  const verifier = randomText(32);
  const state = randomText(24);
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const response = await post(ssoAuthorize, buildPath(ssoAuthorize.path, { id: platformId }), {
    redirect_url: callbackUrl(),
    code_challenge: challenge,
    state,
  });
  if (!response.ok) throw await apiErrorFromResponse(response);
  const { authorization_url: authorizationUrl } = ssoAuthorize.response.parse(await response.json());
  sessionStorage.setItem(`${KEY_PREFIX}${state}`, JSON.stringify({ verifier, platformId, intent } satisfies Kept));
  window.location.assign(authorizationUrl);
  return new Promise<never>(() => undefined);
}

export function takeWebSsoReturn({ search }: { search: string }): SsoReturn | null {
  const params = new URLSearchParams(search);
  const state = params.get('state');
  const stored = state ? sessionStorage.getItem(`${KEY_PREFIX}${state}`) : null;
  if (!state || !stored) return null;
  // Single use: a reload of the callback page cannot replay the code.
  sessionStorage.removeItem(`${KEY_PREFIX}${state}`);
  const kept = JSON.parse(stored) as Kept;
  const code = params.get('code');
  const iss = params.get('iss');
  return {
    platformId: kept.platformId,
    intent: kept.intent,
    callback: code
      ? { code, code_verifier: kept.verifier, state, redirect_url: callbackUrl(), ...(iss ? { iss } : {}) }
      : { error: params.get('error_description') ?? params.get('error') ?? 'access_denied' },
  };
}

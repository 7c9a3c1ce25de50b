import * as client from 'openid-client';
import type { OidcPlatformConfig } from '../../shared/domain/sso';
import type { AppDeps } from '../deps';
import { outboundRefusalOf } from '../net/outboundGuard';
import { createTtlCache } from '../ttlCache';
import { type SsoIdentity, SsoPlatformUnavailableError, SsoRejectedError } from './identity';

const SCOPE = 'openid email profile';
const TIMEOUT_SECONDS = 10;
/** How long a provider's discovery document is reused. */
const DISCOVERY_CACHE_MS = 10 * 60_000;

const isLoopback = (url: URL) => ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);

/**
 * Plain http only for a provider on this machine (tests, a local IdP), anything else must be https.
 * Whether the server may connect to the host at all is the outbound guard's decision.
 */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'The issuer is not a URL.';
  }
  if (url.protocol === 'https:') return null;
  return url.protocol === 'http:' && isLoopback(url) ? null : 'The issuer must be an https:// URL.';
}

/** The nonce is derived from the PKCE challenge, so the server keeps no state between the two calls. */
const nonceOf = async (codeChallenge: string) => client.calculatePKCECodeChallenge(`nonce:${codeChallenge}`);

/**
 * OpenID Connect providers through `openid-client`: discovery (cached), the authorization URL with
 * PKCE S256, and the code exchange whose ID token (or userinfo) names the user. Every request
 * (discovery, token, userinfo, keys) goes through the outbound guard's fetch: the endpoints a
 * discovery document names are checked like the issuer, each time they are connected to.
 */
export function createOidcAdapter({ outbound }: Pick<AppDeps, 'outbound'>) {
  const configurations = createTtlCache<string, client.Configuration>(DISCOVERY_CACHE_MS, 100);

  function configuration(settings: OidcPlatformConfig): Promise<client.Configuration> {
    const key = JSON.stringify([settings.issuer, settings.client_id, settings.client_secret]);
    return configurations.get(key, async () => {
      const problem = issuerProblem(settings.issuer);
      if (problem) throw new SsoPlatformUnavailableError(problem);
      const issuer = new URL(settings.issuer);
      try {
        return await client.discovery(issuer, settings.client_id, settings.client_secret, client.ClientSecretPost(settings.client_secret), {
          execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
          timeout: TIMEOUT_SECONDS,
          [client.customFetch]: outbound.fetch,
        });
      } catch (error) {
        throw new SsoPlatformUnavailableError(`OpenID Connect discovery failed: ${(outboundRefusalOf(error) ?? (error as Error)).message}`);
      }
    });
  }

  async function authorizationUrl(settings: OidcPlatformConfig, input: { redirectUrl: string; codeChallenge: string; state: string }): Promise<string> {
    const config = await configuration(settings);
    return client
      .buildAuthorizationUrl(config, {
        redirect_uri: input.redirectUrl,
        scope: SCOPE,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
        state: input.state,
        nonce: await nonceOf(input.codeChallenge),
      })
      .toString();
  }

  async function exchange(
    settings: OidcPlatformConfig,
    input: { redirectUrl: string; code: string; codeVerifier: string; state: string; iss?: string },
  ): Promise<SsoIdentity> {
    const config = await configuration(settings);
    const callback = new URL(input.redirectUrl);
    callback.search = '';
    callback.searchParams.set('code', input.code);
    callback.searchParams.set('state', input.state);
    if (input.iss) callback.searchParams.set('iss', input.iss);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state,
        expectedNonce: await nonceOf(await client.calculatePKCECodeChallenge(input.codeVerifier)),
        idTokenExpected: true,
      });
    } catch (error) {
      // A token endpoint the guard refused is out of reach, not a refusal of the user.
      const refusal = outboundRefusalOf(error);
      if (refusal) throw new SsoPlatformUnavailableError(refusal.message);
      // The provider refused (wrong or used code, verifier, state): the user starts again.
      if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError || error instanceof TypeError) {
        throw new SsoRejectedError((error as Error).message);
      }
      if ((error as { code?: string }).code?.startsWith('OAUTH_')) throw new SsoRejectedError((error as Error).message);
      throw new SsoPlatformUnavailableError((error as Error).message);
    }
    const claims = tokens.claims();
    if (!claims) throw new SsoRejectedError('No ID token');
    let { email, name } = claims as { email?: unknown; name?: unknown };
    if (typeof email !== 'string' || typeof name !== 'string') {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch((error: Error) => {
        throw new SsoPlatformUnavailableError(error.message);
      });
      email = typeof email === 'string' ? email : info.email;
      name = typeof name === 'string' ? name : (info.name ?? info.preferred_username);
    }
    if (typeof email !== 'string') throw new SsoRejectedError('The provider gave no email address');
    return { subject: claims.sub, email, name: typeof name === 'string' && name.trim() ? name.trim() : email.split('@')[0]! };
  }

  return {
    authorizationUrl,
    exchange,
    forget: (settings: OidcPlatformConfig) => configurations.delete(JSON.stringify([settings.issuer, settings.client_id, settings.client_secret])),
  };
}

export type OidcAdapter = ReturnType<typeof createOidcAdapter>;

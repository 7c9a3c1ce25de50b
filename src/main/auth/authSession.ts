import {
  ApiError,
  apiErrorFromResponse,
  authApi,
  sendReportingFailures,
  sessionEndReasonFor,
  type Endpoint,
  type FailureReport,
  type Member,
  type SessionEndReason,
} from '../../shared/api';
import { ACCESS_TOKEN_HEADER, CLIENT_KIND_HEADER, SUBDOMAIN_HEADER } from '../../shared/domain/http';
import type { DesktopSettings } from '../../shared/ipc/contract';
import { isUnderApiBase } from '../http/apiScope';
import type { SessionTokens, TokenVault } from '../keychain/tokenVault';

/** The network as main sees it: Electron's `net.fetch` in the app, Node's fetch in tests. */
export type NetworkFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Requests carrying credentials never follow a redirect: a 3xx to another host, or from https to
 * http, would carry the access token (a custom header, kept across redirects) where it must not go.
 * The API answers nothing with a redirect, so one is a network failure.
 */
const NO_REDIRECTS = { redirect: 'error' } as const;

export interface AuthSessionOptions {
  fetch: NetworkFetch;
  settings: () => SessionServer;
  vault: TokenVault;
  /** Keychain service for a server and tenant. */
  serviceName: (server: SessionServer) => string;
  /** A refresh failed while the user was working; the renderer shows the spec §8 message. */
  onEnded: (reason: SessionEndReason) => void;
  /**
   * A sign-in, refresh or sign-out failed with a 5xx or on the network; `server` is the one the call
   * went to. The report never holds the request body: it carries the password or the refresh token.
   */
  onCallFailure?: (failure: Omit<FailureReport, 'requestBody'>, server: SessionServer) => void;
}

/** The server and tenant a session belongs to. */
export type SessionServer = Pick<DesktopSettings, 'apiBase' | 'subdomain'>;

/**
 * Where one authenticated operation goes: the server, the tenant and the keychain service of their
 * tokens, read once when it starts. Every later step (after awaiting the keychain or the network)
 * uses this, never the settings again, so a settings change in the meantime cannot send the
 * tokens of one server to another.
 */
interface Target extends SessionServer {
  service: string;
}

export interface AuthorizedRequest {
  method: string;
  headers: Headers;
  /** A stream is made by a function: the request may be sent twice (after a refresh) and a stream reads once. */
  body: Uint8Array | string | null | (() => ReadableStream<Uint8Array>);
  signal?: AbortSignal;
}

interface RenewedSession {
  member: Member;
  tokens: SessionTokens;
}

/**
 * The signed-in session of the desktop app. Tokens come from the server in the JSON body (header
 * `x-client-kind: desktop`), go straight into the vault and are attached here to every request;
 * they never cross the bridge. A 401 triggers one refresh shared by every call waiting on it.
 */
export function createAuthSession(options: AuthSessionOptions) {
  const { vault } = options;
  /** The refresh running for each keychain service: callers for the same session share it. */
  const refreshesInFlight = new Map<string, Promise<RenewedSession | null>>();

  const currentTarget = (): Target => {
    const { apiBase, subdomain } = options.settings();
    return { apiBase, subdomain, service: options.serviceName({ apiBase, subdomain }) };
  };

  function tenantHeaders(subdomain: string | null, headers = new Headers()): Headers {
    if (subdomain) headers.set(SUBDOMAIN_HEADER, subdomain);
    else headers.delete(SUBDOMAIN_HEADER);
    return headers;
  }

  /** A session call; a network failure rejects with ApiError status 0. 5xx and network failures are reported. */
  async function postAuth(target: Target, endpoint: Endpoint, body: unknown, accessToken?: string, path = endpoint.path): Promise<Response> {
    const url = `${target.apiBase}${path}`;
    const server = { apiBase: target.apiBase, subdomain: target.subdomain };
    const report = (error: ApiError, response: Response | null) => options.onCallFailure?.({ endpoint, url, error, response }, server);
    const headers = tenantHeaders(target.subdomain, new Headers({ 'content-type': 'application/json', [CLIENT_KIND_HEADER]: 'desktop' }));
    if (accessToken) headers.set(ACCESS_TOKEN_HEADER, accessToken);
    return sendReportingFailures(() => options.fetch(url, { method: endpoint.method, headers, body: JSON.stringify(body), ...NO_REDIRECTS }), report);
  }

  /** Stores the tokens of a sign-in or refresh answer and returns the member. */
  async function acceptTokens(response: Response, service: string, previousRefresh?: string): Promise<RenewedSession> {
    const answer = authApi.authTokensSchema.parse(await response.json());
    const refreshToken = answer.refresh_token ?? previousRefresh;
    if (!refreshToken) throw new ApiError(502, { code: 'upstream_failed', message: 'The server sent no refresh token for the desktop client' });
    const tokens = { accessToken: answer.access_token, refreshToken };
    await vault.save(service, tokens);
    return { member: answer.member, tokens };
  }

  /**
   * Rotates the refresh token. 401/403 delete the stored session (spec §8); `announce` tells the
   * renderer, except at start-up where "no valid session" just means "show sign-in".
   */
  async function refresh(target: Target, announce: boolean): Promise<RenewedSession | null> {
    const stored = await vault.load(target.service);
    if (!stored) return null;
    let response: Response;
    try {
      response = await postAuth(target, authApi.refresh, { refresh_token: stored.refreshToken });
    } catch {
      if (announce) options.onEnded('auth_refresh_500');
      return null;
    }
    if (response.ok) return acceptTokens(response, target.service, stored.refreshToken);
    if (response.status === 401 || response.status === 403) await vault.clear(target.service);
    if (announce || response.status !== 401) options.onEnded(sessionEndReasonFor(response.status));
    return null;
  }

  /**
   * Every refresh goes through here: callers of the same session arriving while one runs share it,
   * so the rotating refresh token is spent once (spending it twice would trip the server's reuse detection).
   */
  function refreshOnce(target: Target, announce: boolean): Promise<RenewedSession | null> {
    let running = refreshesInFlight.get(target.service);
    if (!running) {
      running = refresh(target, announce).finally(() => refreshesInFlight.delete(target.service));
      refreshesInFlight.set(target.service, running);
    }
    return running;
  }

  async function refreshAfterUnauthorized(target: Target, rejectedAccessToken: string): Promise<SessionTokens | null> {
    // Another call may have renewed the token while this one was in flight.
    const stored = await vault.load(target.service);
    if (stored && stored.accessToken !== rejectedAccessToken) return stored;
    return (await refreshOnce(target, true))?.tokens ?? null;
  }

  /**
   * Performs a request with the access token and tenant attached, refreshing once on 401. Tokens are
   * attached only to a URL under the API base of the server that issued them.
   */
  async function authorizedFetch(url: string, request: AuthorizedRequest): Promise<Response> {
    const target = currentTarget();
    if (!isUnderApiBase(url, target.apiBase)) throw new ApiError(403, { code: 'forbidden', message: 'Credentials only go to the configured API base' });
    const send = (accessToken: string | undefined) => {
      const headers = tenantHeaders(target.subdomain, new Headers(request.headers));
      if (accessToken) headers.set(ACCESS_TOKEN_HEADER, accessToken);
      else headers.delete(ACCESS_TOKEN_HEADER);
      const body = typeof request.body === 'function' ? request.body() : request.body;
      // A streamed body is sent as it is read (Node's fetch needs to be told so).
      const duplex = typeof request.body === 'function' ? { duplex: 'half' as const } : {};
      return options.fetch(url, { method: request.method, headers, body, signal: request.signal, ...duplex, ...NO_REDIRECTS });
    };
    const tokens = await vault.load(target.service);
    const response = await send(tokens?.accessToken);
    if (response.status !== 401 || !tokens) return response;
    const renewed = await refreshAfterUnauthorized(target, tokens.accessToken);
    if (!renewed) return response;
    await response.body?.cancel();
    return send(renewed.accessToken);
  }

  /** Signs in with the credentials' endpoint and keeps the tokens for the server it asked. */
  async function signInWith(endpoint: Endpoint, body: unknown): Promise<Member> {
    const target = currentTarget();
    const response = await postAuth(target, endpoint, body);
    if (!response.ok) throw await apiErrorFromResponse(response);
    return (await acceptTokens(response, target.service)).member;
  }

  return {
    authorizedFetch,

    signIn: (credentials: { email: string; password: string }): Promise<Member> => signInWith(authApi.signIn, credentials),

    /** Signs in with an identity an SSO platform vouched for (`POST /auth/sso-sign-in/`). */
    ssoSignIn: (body: { code: string; sso_platform_id: number }): Promise<Member> => signInWith(authApi.ssoSignIn, body),

    /** A public POST of the current server and tenant, for the SSO browser flow. */
    postPublic: (endpoint: Endpoint, path: string, body: unknown) => postAuth(currentTarget(), endpoint, body, undefined, path),

    /** Resumes the stored session of the current server and tenant; null when there is none. */
    async restore(): Promise<Member | null> {
      return (await refreshOnce(currentTarget(), false))?.member ?? null;
    },

    /**
     * Revokes the session of the current server and tenant when possible and always forgets it
     * locally. A refresh of that session still running is awaited first, so the tokens it brings
     * are the ones revoked and cleared, not stored after.
     */
    async signOut(): Promise<void> {
      const target = currentTarget();
      await refreshesInFlight.get(target.service)?.catch(() => null);
      const stored = await vault.load(target.service);
      await vault.clear(target.service);
      if (stored) await postAuth(target, authApi.signOut, { refresh_token: stored.refreshToken }, stored.accessToken).catch(() => undefined);
    },
  };
}

export type AuthSession = ReturnType<typeof createAuthSession>;

import { ApiError, apiErrorFromResponse, authApi, sendReportingFailures, sessionEndReasonFor, type Endpoint, type FailureReport, type Member, type SessionEndReason } from '../../shared/api';
import { ACCESS_TOKEN_HEADER, CLIENT_KIND_HEADER, SUBDOMAIN_HEADER } from '../../shared/domain/http';
import type { DesktopSettings } from '../../shared/ipc/contract';
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
  settings: () => Pick<DesktopSettings, 'apiBase' | 'subdomain'>;
  vault: TokenVault;
  /** Keychain service for the current server and tenant. */
  serviceName: (settings: Pick<DesktopSettings, 'apiBase' | 'subdomain'>) => string;
  /** A refresh failed while the user was working; the renderer shows the spec §8 message. */
  onEnded: (reason: SessionEndReason) => void;
  /**
   * A sign-in, refresh or sign-out failed with a 5xx or on the network. The report never holds the
   * request body: it carries the password or the refresh token.
   */
  onCallFailure?: (failure: Omit<FailureReport, 'requestBody'>) => void;
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
  let refreshInFlight: Promise<RenewedSession | null> | null = null;

  const current = () => {
    const settings = options.settings();
    return { settings, service: options.serviceName(settings) };
  };
  const endpointUrl = (apiBase: string, path: string) => `${apiBase}${path}`;

  function tenantHeaders(subdomain: string | null, headers = new Headers()): Headers {
    if (subdomain) headers.set(SUBDOMAIN_HEADER, subdomain);
    else headers.delete(SUBDOMAIN_HEADER);
    return headers;
  }

  /** A session call; a network failure rejects with ApiError status 0. 5xx and network failures are reported. */
  async function postAuth(endpoint: Endpoint, body: unknown, accessToken?: string, path = endpoint.path): Promise<Response> {
    const { settings } = current();
    const url = endpointUrl(settings.apiBase, path);
    const report = (error: ApiError, response: Response | null) => options.onCallFailure?.({ endpoint, url, error, response });
    const headers = tenantHeaders(settings.subdomain, new Headers({ 'content-type': 'application/json', [CLIENT_KIND_HEADER]: 'desktop' }));
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
  async function refresh(announce: boolean): Promise<RenewedSession | null> {
    const { service } = current();
    const stored = await vault.load(service);
    if (!stored) return null;
    let response: Response;
    try {
      response = await postAuth(authApi.refresh, { refresh_token: stored.refreshToken });
    } catch {
      if (announce) options.onEnded('auth_refresh_500');
      return null;
    }
    if (response.ok) return acceptTokens(response, service, stored.refreshToken);
    if (response.status === 401 || response.status === 403) await vault.clear(service);
    if (announce || response.status !== 401) options.onEnded(sessionEndReasonFor(response.status));
    return null;
  }

  /**
   * Every refresh goes through here: callers arriving while one runs share it, so the rotating
   * refresh token is spent once (spending it twice would trip the server's reuse detection).
   */
  function refreshOnce(announce: boolean): Promise<RenewedSession | null> {
    refreshInFlight ??= refresh(announce).finally(() => {
      refreshInFlight = null;
    });
    return refreshInFlight;
  }

  async function refreshAfterUnauthorized(rejectedAccessToken: string): Promise<SessionTokens | null> {
    // Another call may have renewed the token while this one was in flight.
    const stored = await vault.load(current().service);
    if (stored && stored.accessToken !== rejectedAccessToken) return stored;
    return (await refreshOnce(true))?.tokens ?? null;
  }

  /** Performs a request with the access token and tenant attached, refreshing once on 401. */
  async function authorizedFetch(url: string, request: AuthorizedRequest): Promise<Response> {
    const { settings, service } = current();
    const send = (accessToken: string | undefined) => {
      const headers = tenantHeaders(settings.subdomain, new Headers(request.headers));
      if (accessToken) headers.set(ACCESS_TOKEN_HEADER, accessToken);
      else headers.delete(ACCESS_TOKEN_HEADER);
      const body = typeof request.body === 'function' ? request.body() : request.body;
      // A streamed body is sent as it is read (Node's fetch needs to be told so).
      const duplex = typeof request.body === 'function' ? { duplex: 'half' as const } : {};
      return options.fetch(url, { method: request.method, headers, body, signal: request.signal, ...duplex, ...NO_REDIRECTS });
    };
    const tokens = await vault.load(service);
    const response = await send(tokens?.accessToken);
    if (response.status !== 401 || !tokens) return response;
    const renewed = await refreshAfterUnauthorized(tokens.accessToken);
    if (!renewed) return response;
    await response.body?.cancel();
    return send(renewed.accessToken);
  }

  return {
    authorizedFetch,

    async signIn(credentials: { email: string; password: string }): Promise<Member> {
      const response = await postAuth(authApi.signIn, credentials);
      if (!response.ok) throw await apiErrorFromResponse(response);
      return (await acceptTokens(response, current().service)).member;
    },

    /** Signs in with an identity an SSO platform vouched for (`POST /auth/sso-sign-in/`). */
    async ssoSignIn(body: { code: string; sso_platform_id: number }): Promise<Member> {
      const response = await postAuth(authApi.ssoSignIn, body);
      if (!response.ok) throw await apiErrorFromResponse(response);
      return (await acceptTokens(response, current().service)).member;
    },

    /** A public POST of the current server and tenant, for the SSO browser flow. */
    postPublic: (endpoint: Endpoint, path: string, body: unknown) => postAuth(endpoint, body, undefined, path),

    /** Resumes the stored session of the current server and tenant; null when there is none. */
    async restore(): Promise<Member | null> {
      return (await refreshOnce(false))?.member ?? null;
    },

    /** Revokes the session on the server when possible and always forgets it locally. */
    async signOut(): Promise<void> {
      const { service } = current();
      const stored = await vault.load(service);
      await vault.clear(service);
      if (stored) await postAuth(authApi.signOut, { refresh_token: stored.refreshToken }, stored.accessToken).catch(() => undefined);
    },
  };
}

export type AuthSession = ReturnType<typeof createAuthSession>;

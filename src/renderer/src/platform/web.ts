import { ApiError, apiErrorFromResponse, sendReportingFailures, sessionEndReasonFor, type SessionEndReason } from '../../../shared/api/apiError';
import * as authApi from '../../../shared/api/auth';
import * as chatApi from '../../../shared/api/chat';
import { openChatResponse } from '../../../shared/api/chatResponse';
import { isAbortError, readChatFrames } from '../../../shared/api/chatStream';
import { buildPath, type Endpoint } from '../../../shared/api/endpoint';
import type { Member } from '../../../shared/api/members';
import * as publicSessionsApi from '../../../shared/api/publicSessions';
import { API_PREFIX, ACCESS_TOKEN_HEADER, SUBDOMAIN_COOKIE, SUBDOMAIN_HEADER } from '../../../shared/domain/http';
import { PUBLIC_ACCESS_TOKEN } from '../../../shared/domain/sharing';
import type { ChatStreamRequest, ClientSettings, Platform, TransferProgress } from './types';

const PUBLIC_PATH_SEGMENT = `${API_PREFIX}/public/`;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

type Transport = (request: Request) => Promise<Response>;

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * A transport through XMLHttpRequest, the one browser API that tells how much of a request body
 * went out (fetch cannot, short of streamed uploads over HTTP/2). Used for file transfers only.
 */
export function xhrTransport(onProgress: (progress: TransferProgress) => void, createXhr = () => new XMLHttpRequest()): Transport {
  return async (request) => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
    request.signal.throwIfAborted();
    return new Promise<Response>((resolve, reject) => {
      const xhr = createXhr();
      xhr.open(request.method, request.url);
      xhr.withCredentials = true;
      xhr.responseType = 'arraybuffer';
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      const tell = (direction: TransferProgress['direction']) => (event: ProgressEvent) =>
        onProgress({ direction, loaded: event.loaded, total: event.lengthComputable ? event.total : null });
      xhr.upload.addEventListener('progress', tell('upload'));
      xhr.addEventListener('progress', tell('download'));
      xhr.addEventListener('load', () =>
        resolve(
          new Response(NULL_BODY_STATUSES.has(xhr.status) ? null : (xhr.response as ArrayBuffer), {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        ),
      );
      xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
      xhr.addEventListener('abort', () => reject(request.signal.reason ?? new DOMException('Aborted', 'AbortError')));
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}

export interface WebPlatformOptions {
  /** The network; tests inject a fake. */
  fetch?: typeof globalThis.fetch;
  /** The XMLHttpRequest of file transfers with progress; tests inject a fake. */
  createXhr?: () => XMLHttpRequest;
  apiBase?: string;
  /**
   * Told of every sign-in, refresh and sign-out call that failed with a 5xx or no response, so they
   * reach log-error like any other call (spec §7). The request body is never passed on: it holds
   * the password.
   */
  onSessionCallFailure?: (failure: SessionCallFailure) => void;
}

export interface SessionCallFailure {
  endpoint: Endpoint;
  url: string;
  error: ApiError;
  /** Null for a network failure. */
  response: Response | null;
}

function readCookie(name: string): string | null {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return entry ? decodeURIComponent(entry.slice(name.length + 1)) : null;
}

function writeCookie(name: string, value: string | null): void {
  document.cookie = value === null ? `${name}=; path=/; max-age=0; SameSite=Lax` : `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
}

/**
 * The browser platform. The access token lives in this closure only (never in storage); the
 * refresh token is an HttpOnly cookie the server sets, so a reload resumes through /auth/refresh/.
 */
export function createWebPlatform(options: WebPlatformOptions = {}): Platform {
  const network = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  let apiBase = options.apiBase ?? `${window.location.origin}${API_PREFIX}`;
  let accessToken: string | null = null;
  let refreshInFlight: Promise<Member | null> | null = null;
  const endListeners = new Set<(reason: SessionEndReason) => void>();

  const url = (path: string) => `${apiBase.replace(/\/$/, '')}${path}`;

  function withTenant(headers: Headers): Headers {
    const subdomain = readCookie(SUBDOMAIN_COOKIE);
    if (subdomain) headers.set(SUBDOMAIN_HEADER, subdomain);
    return headers;
  }

  /** A session call; a network failure rejects with ApiError status 0. */
  async function postAuth(endpoint: Endpoint, body: unknown, path = endpoint.path): Promise<Response> {
    const target = url(path);
    const report = (error: ApiError, response: Response | null) => options.onSessionCallFailure?.({ endpoint, url: target, error, response });
    const init = {
      method: endpoint.method,
      credentials: 'include',
      headers: withTenant(new Headers({ 'content-type': 'application/json' })),
      body: JSON.stringify(body),
    } satisfies RequestInit;
    return sendReportingFailures(() => network(target, init), report);
  }

  async function acceptTokens(response: Response): Promise<Member> {
    const tokens = authApi.authTokensSchema.parse(await response.json());
    accessToken = tokens.access_token;
    return tokens.member;
  }

  /**
   * One refresh for everyone waiting: concurrent 401s share the same promise, so the rotating
   * refresh token is spent once. Resolves null when the session could not be renewed.
   */
  function refreshOnce(quietWhenSignedOut: boolean): Promise<Member | null> {
    refreshInFlight ??= (async () => {
      try {
        const response = await postAuth(authApi.refresh, {});
        if (response.ok) return await acceptTokens(response);
        accessToken = null;
        // At start-up a 401 only means "not signed in"; anything else is worth telling the user.
        if (!(quietWhenSignedOut && response.status === 401)) endListeners.forEach((listener) => listener(sessionEndReasonFor(response.status)));
        return null;
      } catch {
        endListeners.forEach((listener) => listener('auth_refresh_500'));
        return null;
      } finally {
        refreshInFlight = null;
      }
    })();
    return refreshInFlight;
  }

  function send(request: Request, transport: Transport): Promise<Response> {
    const headers = withTenant(new Headers(request.headers));
    if (accessToken) headers.set(ACCESS_TOKEN_HEADER, accessToken);
    // Spec §6: signed out, public paths carry the token value `public`.
    else if (new URL(request.url).pathname.includes(PUBLIC_PATH_SEGMENT)) headers.set(ACCESS_TOKEN_HEADER, PUBLIC_ACCESS_TOKEN);
    return transport(new Request(request, { headers, credentials: 'include' }));
  }

  async function authorizedFetch(request: Request, onProgress?: (progress: TransferProgress) => void): Promise<Response> {
    const transport: Transport = onProgress ? xhrTransport(onProgress, options.createXhr) : network;
    const retry = request.clone();
    const tokenUsed = accessToken;
    const response = await send(request, transport);
    if (response.status !== 401 || new URL(request.url).pathname.includes('/auth/')) return response;
    // Another call may already have renewed the token while this one was in flight.
    if (accessToken && accessToken !== tokenUsed) return send(retry, transport);
    // Signed out (no token sent), a 401 is the call's own answer (a refused SSO step): a failed
    // refresh then ends no session, so it is not announced.
    const member = await refreshOnce(tokenUsed === null);
    return member ? send(retry, transport) : response;
  }

  async function streamChat({ chatbotId, body, visitor, signal, onMeta, onFrame }: ChatStreamRequest): Promise<void> {
    const endpoint = visitor ? publicSessionsApi.publicChat : chatApi.chat;
    const request = new Request(url(buildPath(endpoint.path, { id: chatbotId })), {
      method: endpoint.method,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(visitor ? { ...body, language: visitor.language } : body),
      signal,
    });
    let response: Response;
    try {
      response = await authorizedFetch(request);
    } catch (error) {
      if (isAbortError(error)) return;
      throw new ApiError(0, null, error instanceof Error ? error.message : String(error));
    }
    const chat = await openChatResponse(response);
    onMeta(chat.meta);
    if (!chat.body) return;

    try {
      await readChatFrames(chat.body, onFrame);
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return;
      throw new ApiError(0, null, error instanceof Error ? error.message : String(error));
    }
  }

  const settings = {
    async get(): Promise<ClientSettings> {
      return { apiBase, subdomain: readCookie(SUBDOMAIN_COOKIE) };
    },
    async set(patch: Partial<ClientSettings>): Promise<ClientSettings> {
      if (patch.apiBase !== undefined) apiBase = patch.apiBase;
      if (patch.subdomain !== undefined) writeCookie(SUBDOMAIN_COOKIE, patch.subdomain);
      return settings.get();
    },
  };

  return {
    kind: 'web',
    fetch: authorizedFetch,
    session: {
      async signIn(credentials) {
        const response = await postAuth(authApi.signIn, credentials);
        if (!response.ok) throw await apiErrorFromResponse(response);
        return acceptTokens(response);
      },
      async ssoSignIn(body) {
        const response = await postAuth(authApi.ssoSignIn, body);
        if (!response.ok) throw await apiErrorFromResponse(response);
        return acceptTokens(response);
      },
      restore: () => refreshOnce(true),
      async signOut() {
        accessToken = null;
        await postAuth(authApi.signOut, {}).catch(() => undefined);
      },
      onEnded(listener) {
        endListeners.add(listener);
        return () => endListeners.delete(listener);
      },
    },
    streamChat,
    settings,
    sso: {
      async authorize(platformId, intent) {
        // Loaded on demand: PKCE and the redirect are not part of the first screen.
        const { startWebSso } = await import('./webSso');
        return startWebSso((endpoint, path, body) => postAuth(endpoint, body, path), platformId, intent);
      },
      async takeReturn(location) {
        const { takeWebSsoReturn } = await import('./webSso');
        return takeWebSsoReturn(location);
      },
    },
    openAdminConsole: () => window.open('/admin', '_blank', 'noopener'),
    openExternal: (target) => window.open(target, '_blank', 'noopener,noreferrer'),
  };
}

import ky from 'ky';
import type { z } from 'zod';
import { ApiError, apiErrorFromResponse } from '../../../shared/api/apiError';
import { buildPath, type Endpoint, type EndpointBody, type EndpointParams, type EndpointQuery, type EndpointResponse } from '../../../shared/api/endpoint';
import { getPlatform } from '../platform';
import type { TransferProgress } from '../platform/types';
import { isReportedStatus, reportFailure } from './errorReporter';

type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

/** Only the parts an endpoint declares are accepted (and required when it declares them). */
export type CallOptions<E> = ([EndpointParams<E>] extends [never] ? { params?: never } : { params: EndpointParams<E> }) &
  ([EndpointQuery<E>] extends [never] ? { query?: never } : { query?: EndpointQuery<E> }) &
  ([EndpointBody<E>] extends [never] ? { body?: never } : { body: EndpointBody<E> });

export interface RawTransfer {
  body?: FormData;
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
}

/** What the hooks need to know of the call (ky's `context`). */
interface CallContext {
  endpoint: AnyEndpoint;
  url: string;
  requestBody: unknown;
}

/**
 * ky on top of the platform transport, which attaches the token and tenant and refreshes on 401
 * (on desktop that happens in main, so it stays below ky). ky's hooks report every 5xx
 * (`afterResponse`, on its clone of the response) and every network failure or timeout
 * (`beforeError`, which also turns it into ApiError status 0) to log-error (spec §7).
 */
const http = ky.create({
  fetch: (input, init) => getPlatform().fetch(new Request(input, init)),
  throwHttpErrors: false,
  retry: 0,
  timeout: 30_000,
  hooks: {
    afterResponse: [
      async ({ options, response }) => {
        if (!isReportedStatus(response.status)) return;
        const { endpoint, url, requestBody } = options.context as unknown as CallContext;
        reportFailure({ endpoint, url, requestBody, error: await apiErrorFromResponse(response.clone()), response });
      },
    ],
    beforeError: [
      ({ options, error }) => {
        const { endpoint, url, requestBody } = options.context as unknown as CallContext;
        const apiError = new ApiError(0, null, error.message);
        reportFailure({ endpoint, url, requestBody, error: apiError, response: null });
        return apiError;
      },
    ],
  },
});

function toSearchParams(query: unknown): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  return search;
}

/** The absolute URL of an API path (already filled, e.g. `/sessions/abc/`) under the configured API base. */
export async function apiUrl(path: string): Promise<string> {
  const { apiBase } = await getPlatform().settings.get();
  return `${apiBase.replace(/\/$/, '')}${path}`;
}

/**
 * A URL the server gave (an image such as the tenant logo), made absolute against the API base:
 * the desktop renderer's own origin is `app://bundle`, where a server-relative path finds nothing.
 */
export async function resolveServerUrl(url: string): Promise<string> {
  const { apiBase } = await getPlatform().settings.get();
  return new URL(url, apiBase).href;
}

/**
 * Calls one endpoint of the shared contract. Resolves with the response parsed by the endpoint's
 * zod schema; rejects with ApiError (status 0 for a network failure). 5xx and network failures
 * are reported to the log-error endpoint before they are rethrown (spec §8).
 */
export async function callEndpoint<E extends AnyEndpoint>(endpoint: E, options: CallOptions<E> = {} as CallOptions<E>): Promise<EndpointResponse<E>> {
  const { params, query, body } = options as { params?: Record<string, string | number>; query?: unknown; body?: unknown };
  const url = await apiUrl(buildPath(endpoint.path, params));
  const searchParams = toSearchParams(query);

  const context: CallContext = { endpoint, url, requestBody: body };
  const response = await http(url, { method: endpoint.method, searchParams, json: body, context: { ...context } });
  if (!response.ok) throw await apiErrorFromResponse(response);
  const json: unknown = response.status === 204 ? { ok: true } : await response.json();
  return endpoint.response.parse(json) as EndpointResponse<E>;
}

/**
 * Sends one request of an endpoint whose body is not JSON (a multipart upload) or whose answer is
 * not JSON (a file download), with the same transport, token and failure reports as callEndpoint.
 * A transfer has no time limit (a large file on a slow line takes what it takes; `signal` stops
 * it) and tells its progress to `onProgress`. Rejects with ApiError.
 */
export async function sendRaw(endpoint: AnyEndpoint, path: string, options: RawTransfer = {}): Promise<Response> {
  const { body, onProgress, signal } = options;
  const url = await apiUrl(path);
  const context: CallContext = { endpoint, url, requestBody: body ? '(multipart)' : undefined };
  const response = await http(url, {
    method: endpoint.method,
    body,
    signal,
    timeout: false,
    context: { ...context },
    ...(onProgress ? { fetch: (input: RequestInfo | URL, init?: RequestInit) => getPlatform().fetch(new Request(input, init), onProgress) } : {}),
  });
  if (!response.ok) throw await apiErrorFromResponse(response);
  return response;
}

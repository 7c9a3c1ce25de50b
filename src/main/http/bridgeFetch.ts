import { ApiError } from '../../shared/api';
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc/contract';
import type { AuthSession } from '../auth/authSession';
import { createRunningRequests } from '../ipc/runningRequests';
import { bodyCarriesTokens, isTokenEndpoint, isUnderApiBase, TOKEN_ENDPOINT_PATHS } from './apiScope';

/** Headers the renderer may not set: main owns credentials and the tenant. */
const MAIN_OWNED_HEADERS = ['cookie', 'x-access-token', 'x-subdomain', 'x-client-kind'];
/** Response headers that could hand the renderer a credential; never forwarded. */
const CREDENTIAL_RESPONSE_HEADERS = new Set(['set-cookie', 'set-cookie2']);

const refused = (message: string) => new ApiError(403, { code: 'forbidden', message });

/**
 * The renderer's `fetch` performed in main (DESIGN §5): only URLs under the configured API base,
 * never a token endpoint of the contract (decided on the decoded, normalised path), with credentials
 * attached by the auth session. Any body and any response are carried as bytes, so uploads and
 * downloads work like JSON calls, but no answer with a token field or a cookie ever goes back.
 * Each request runs under the renderer's request id, so that aborting it in the renderer
 * (`http:cancel`) aborts it here. `tokenEndpointPaths` is the contract's list; tests pass another.
 */
export function createBridgeFetch(session: Pick<AuthSession, 'authorizedFetch'>, apiBase: () => string, tokenEndpointPaths = TOKEN_ENDPOINT_PATHS) {
  const running = createRunningRequests();

  return {
    async fetch(senderId: number, requestId: string, request: BridgeRequest): Promise<BridgeResponse> {
      const base = apiBase();
      if (!isUnderApiBase(request.url, base)) throw refused('The desktop bridge only reaches the configured API base');
      if (isTokenEndpoint(request.url, base, tokenEndpointPaths)) throw refused('Sign-in credentials stay in the desktop app');
      const headers = new Headers(request.headers);
      MAIN_OWNED_HEADERS.forEach((name) => headers.delete(name));
      const call = running.begin(senderId, requestId);
      let answer: BridgeResponse;
      try {
        const response = await session.authorizedFetch(request.url, { method: request.method, headers, body: request.body, signal: call.signal });
        answer = {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()].filter(([name]) => !CREDENTIAL_RESPONSE_HEADERS.has(name.toLowerCase())),
          body: new Uint8Array(await response.arrayBuffer()),
        };
      } catch (error) {
        if (call.signal.aborted) throw new ApiError(0, null, 'Cancelled');
        throw new ApiError(0, null, error instanceof Error ? error.message : String(error));
      } finally {
        call.end();
      }
      if (bodyCarriesTokens(answer.body)) throw refused('Sign-in credentials stay in the desktop app');
      return answer;
    },
    cancel: running.cancel,
    /** A window closed or reloaded: stop every request it was waiting for. */
    cancelAllOf: running.cancelAllOf,
  };
}

export type BridgeFetch = ReturnType<typeof createBridgeFetch>;

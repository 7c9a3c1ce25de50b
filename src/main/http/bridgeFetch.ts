import { ApiError } from '../../shared/api';
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc/contract';
import type { AuthSession } from '../auth/authSession';
import { createRunningRequests } from '../ipc/runningRequests';
import { isTokenEndpoint, isUnderApiBase } from './apiScope';

/** Headers the renderer may not set: main owns credentials and the tenant. */
const MAIN_OWNED_HEADERS = ['cookie', 'x-access-token', 'x-subdomain', 'x-client-kind'];

/**
 * The renderer's `fetch` performed in main (DESIGN §5): only URLs under the configured API base,
 * never the token endpoints, with credentials attached by the auth session. Any body and any
 * response are carried as bytes, so uploads and downloads work like JSON calls. Each request runs
 * under the renderer's request id, so that aborting it in the renderer (`http:cancel`) aborts it here.
 */
export function createBridgeFetch(session: Pick<AuthSession, 'authorizedFetch'>, apiBase: () => string) {
  const running = createRunningRequests();

  return {
    async fetch(senderId: number, requestId: string, request: BridgeRequest): Promise<BridgeResponse> {
      const base = apiBase();
      if (!isUnderApiBase(request.url, base) || isTokenEndpoint(request.url, base)) {
        throw new ApiError(403, { code: 'forbidden', message: 'The desktop bridge only reaches the configured API base' });
      }
      const headers = new Headers(request.headers);
      MAIN_OWNED_HEADERS.forEach((name) => headers.delete(name));
      const call = running.begin(senderId, requestId);
      try {
        const response = await session.authorizedFetch(request.url, { method: request.method, headers, body: request.body, signal: call.signal });
        return {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()],
          body: new Uint8Array(await response.arrayBuffer()),
        };
      } catch (error) {
        if (call.signal.aborted) throw new ApiError(0, null, 'Cancelled');
        throw new ApiError(0, null, error instanceof Error ? error.message : String(error));
      } finally {
        call.end();
      }
    },
    cancel: running.cancel,
    /** A window closed or reloaded: stop every request it was waiting for. */
    cancelAllOf: running.cancelAllOf,
  };
}

export type BridgeFetch = ReturnType<typeof createBridgeFetch>;

import { ApiError } from '../../shared/api';
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc/contract';
import type { AuthSession } from '../auth/authSession';
import { isTokenEndpoint, isUnderApiBase } from './apiScope';

/** Headers the renderer may not set: main owns credentials and the tenant. */
const MAIN_OWNED_HEADERS = ['cookie', 'x-access-token', 'x-subdomain', 'x-client-kind'];

/**
 * The renderer's `fetch` performed in main (DESIGN §5): only URLs under the configured API base,
 * never the token endpoints, with credentials attached by the auth session. Any body and any
 * response are carried as bytes, so uploads and downloads work like JSON calls.
 */
export function createBridgeFetch(session: Pick<AuthSession, 'authorizedFetch'>, apiBase: () => string) {
  return async function bridgeFetch(request: BridgeRequest): Promise<BridgeResponse> {
    const base = apiBase();
    if (!isUnderApiBase(request.url, base) || isTokenEndpoint(request.url, base)) {
      throw new ApiError(403, { code: 'forbidden', message: 'The desktop bridge only reaches the configured API base' });
    }
    const headers = new Headers(request.headers);
    MAIN_OWNED_HEADERS.forEach((name) => headers.delete(name));
    let response: Response;
    try {
      response = await session.authorizedFetch(request.url, { method: request.method, headers, body: request.body });
    } catch (error) {
      throw new ApiError(0, null, error instanceof Error ? error.message : String(error));
    }
    return {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers.entries()],
      body: new Uint8Array(await response.arrayBuffer()),
    };
  };
}

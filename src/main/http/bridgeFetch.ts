import { ApiError } from '../../shared/api';
import type { BridgeRequest, BridgeResponse, EventPayload, TransferProgress } from '../../shared/ipc/contract';
import type { AuthSession } from '../auth/authSession';
import { createRunningRequests } from '../ipc/runningRequests';
import { bodyCarriesTokens, isTokenEndpoint, isUnderApiBase, TOKEN_ENDPOINT_PATHS } from './apiScope';

/** Headers the renderer may not set: main owns credentials and the tenant. */
const MAIN_OWNED_HEADERS = ['cookie', 'x-access-token', 'x-subdomain', 'x-client-kind'];
/** Response headers that could hand the renderer a credential; never forwarded. */
const CREDENTIAL_RESPONSE_HEADERS = new Set(['set-cookie', 'set-cookie2']);

const refused = (message: string) => new ApiError(403, { code: 'forbidden', message });

/** The window a request came from: its id, and where its `http:progress` events go. */
export interface BridgeSender {
  id: number;
  send(channel: 'http:progress', payload: EventPayload<'http:progress'>): void;
}

/** Bytes per chunk of a body sent with progress, and the least time between two progress events. */
const UPLOAD_CHUNK_BYTES = 64 * 1024;
const PROGRESS_INTERVAL_MS = 100;

/** Reports progress at most every PROGRESS_INTERVAL_MS, and always the last figure. */
function progressReporter(report: (progress: TransferProgress) => void) {
  let last = 0;
  return (progress: TransferProgress) => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS && progress.loaded !== progress.total) return;
    last = now;
    report(progress);
  };
}

/** A body sent chunk by chunk, telling how much the network has taken so far. */
function countedBody(bytes: Uint8Array, report: (progress: TransferProgress) => void): () => ReadableStream<Uint8Array> {
  return () => {
    let offset = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.byteLength) {
          controller.close();
          return;
        }
        const chunk = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
        offset += chunk.byteLength;
        controller.enqueue(chunk);
        report({ direction: 'upload', loaded: offset, total: bytes.byteLength });
      },
    });
  };
}

/** Reads an answer's body whole, telling how much has arrived so far. */
async function readCounted(response: Response, report: (progress: TransferProgress) => void): Promise<Uint8Array<ArrayBuffer>> {
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    loaded += chunk.byteLength;
    report({ direction: 'download', loaded, total });
  }
  const body = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * The renderer's `fetch` performed in main (DESIGN §5): only URLs under the configured API base,
 * never a token endpoint of the contract (decided on the decoded, normalised path), with credentials
 * attached by the auth session. Any body and any response are carried as bytes, so uploads and
 * downloads work like JSON calls, but no answer with a token field or a cookie ever goes back.
 * Each request runs under the renderer's request id, so that aborting it in the renderer
 * (`http:cancel`) aborts it here. With `progress`, the body goes out in chunks and the answer is
 * read in chunks, each step told to the window as `http:progress` (uploads and downloads of files).
 * `tokenEndpointPaths` is the contract's list; tests pass another.
 */
export function createBridgeFetch(session: Pick<AuthSession, 'authorizedFetch'>, apiBase: () => string, tokenEndpointPaths = TOKEN_ENDPOINT_PATHS) {
  const running = createRunningRequests();

  return {
    async fetch(sender: BridgeSender, requestId: string, { progress, ...request }: BridgeRequest & { progress?: boolean }): Promise<BridgeResponse> {
      const base = apiBase();
      if (!isUnderApiBase(request.url, base)) throw refused('The desktop bridge only reaches the configured API base');
      if (isTokenEndpoint(request.url, base, tokenEndpointPaths)) throw refused('Sign-in credentials stay in the desktop app');
      const headers = new Headers(request.headers);
      MAIN_OWNED_HEADERS.forEach((name) => headers.delete(name));
      const call = running.begin(sender.id, requestId);
      const report = progress ? progressReporter((step) => sender.send('http:progress', { requestId, ...step })) : null;
      const body = report && request.body ? countedBody(request.body, report) : request.body;
      let answer: BridgeResponse;
      try {
        const response = await session.authorizedFetch(request.url, { method: request.method, headers, body, signal: call.signal });
        answer = {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers.entries()].filter(([name]) => !CREDENTIAL_RESPONSE_HEADERS.has(name.toLowerCase())),
          body: report ? await readCounted(response, report) : new Uint8Array(await response.arrayBuffer()),
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

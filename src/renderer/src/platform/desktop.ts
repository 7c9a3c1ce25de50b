import { ApiError } from '../../../shared/api/apiError';
import type { ChatFrame } from '../../../shared/api/chat';
import type { Bridge, IpcResult } from '../../../shared/ipc/contract';
import type { ChatStreamRequest, ClientSettings, Platform, TransferProgress } from './types';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Main answers every call with a result; failures become the same ApiError the web transport throws. */
function unwrap<T>(result: IpcResult<T>): T {
  if (result.ok) return result.value;
  throw new ApiError(result.error.status, result.error.body);
}

async function serializeRequest(request: Request) {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return {
    url: request.url,
    method: request.method.toUpperCase() as 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    headers: [...request.headers.entries()],
    // Bytes carry JSON, text and multipart uploads alike; the Request already encoded the boundary.
    body: hasBody ? new Uint8Array(await request.arrayBuffer()) : null,
  };
}

/**
 * The desktop platform: every call goes through `window.bridge` to main, which holds the tokens,
 * performs the HTTP request and parses the chat stream (DESIGN §5, §6). Nothing here sees a token.
 */
export function createDesktopPlatform(bridge: Bridge): Platform {
  async function bridgeFetch(request: Request, onProgress?: (progress: TransferProgress) => void): Promise<Response> {
    const serialized = await serializeRequest(request);
    // Checked after serializing, so that a cancel is only ever sent after the request it names.
    request.signal.throwIfAborted();
    const requestId = crypto.randomUUID();
    const stopProgress = onProgress
      ? bridge.http.onProgress(({ requestId: id, ...progress }) => {
          if (id === requestId) onProgress(progress);
        })
      : () => {};
    // The caller (ky's timeout, a closed screen) stops waiting at once, and main aborts the request.
    let cancel = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      cancel = () => {
        void bridge.http.cancel({ requestId });
        reject(request.signal.reason);
      };
    });
    request.signal.addEventListener('abort', cancel, { once: true });
    const result = await Promise.race([bridge.http.fetch({ ...serialized, requestId, progress: onProgress !== undefined }), cancelled]).finally(() => {
      request.signal.removeEventListener('abort', cancel);
      stopProgress();
    });
    const response = unwrap(result);
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  function streamChat({ chatbotId, body, visitor, signal, onMeta, onFrame }: ChatStreamRequest): Promise<void> {
    // Shared sessions open in a browser; the desktop app is always signed in and chats as the member.
    if (visitor) return Promise.reject(new ApiError(404, null, 'Visitor chat is not available in the desktop app.'));
    if (signal.aborted) return Promise.resolve();
    const requestId = crypto.randomUUID();
    return new Promise<void>((resolve, reject) => {
      // Frames can overtake the reply to chat:start; hold them until the metadata is delivered.
      let pending: ChatFrame[] | null = [];
      let endedEarly: (() => void) | null = null;
      const unsubscribe = bridge.chat.onStream(({ requestId: id, event }) => {
        if (id !== requestId) return;
        if (event.type === 'frame') {
          if (pending) pending.push(event.frame);
          else onFrame(event.frame);
          return;
        }
        const end = event.type === 'done' ? () => finish(resolve) : () => finish(() => reject(new ApiError(event.status, event.body)));
        if (pending) endedEarly = end;
        else end();
      });
      const onAbort = () => {
        void bridge.chat.cancel({ requestId });
        finish(resolve);
      };
      function finish(settle: () => void) {
        unsubscribe();
        signal.removeEventListener('abort', onAbort);
        settle();
      }
      signal.addEventListener('abort', onAbort, { once: true });
      bridge.chat.start({ requestId, chatbotId, body }).then(
        (result) => {
          if (signal.aborted) return;
          if (!result.ok) {
            finish(() => reject(new ApiError(result.error.status, result.error.body)));
            return;
          }
          onMeta(result.value);
          const held = pending ?? [];
          pending = null;
          held.forEach(onFrame);
          endedEarly?.();
        },
        (error: unknown) => finish(() => reject(new ApiError(0, null, error instanceof Error ? error.message : String(error)))),
      );
    });
  }

  const toClientSettings = ({ apiBase, subdomain }: ClientSettings): ClientSettings => ({ apiBase, subdomain });

  return {
    kind: 'desktop',
    fetch: bridgeFetch,
    session: {
      signIn: async (credentials) => unwrap(await bridge.session.signIn(credentials)),
      ssoSignIn: async (body) => unwrap(await bridge.session.ssoSignIn(body)),
      restore: async () => unwrap(await bridge.session.restore()),
      signOut: async () => {
        unwrap(await bridge.session.signOut());
      },
      onEnded: (listener) => bridge.session.onEnded(({ reason }) => listener(reason)),
      onSecureStorageUnavailable(listener) {
        let told = false;
        const tell = () => {
          if (!told) listener();
          told = true;
        };
        const unsubscribe = bridge.session.onStorageUnavailable(tell);
        // The vault may have found no keychain before this subscriber existed.
        void bridge.session.storageStatus().then((result) => {
          if (result.ok && result.value.storage === 'memory') tell();
        });
        return unsubscribe;
      },
    },
    streamChat,
    settings: {
      get: async () => toClientSettings(unwrap(await bridge.settings.get())),
      set: async (patch) => toClientSettings(unwrap(await bridge.settings.set(patch))),
    },
    sso: {
      // The system browser and its loopback redirect are main's (RFC 8252); the answer comes back here.
      authorize: async (platformId, intent) => ({ platformId, intent, callback: unwrap(await bridge.sso.authorize({ sso_platform_id: platformId })) }),
      takeReturn: async () => null,
    },
    openAdminConsole: () => void bridge.window.openAdmin(),
    openExternal: (url) => void bridge.shell.openExternal({ url }),
  };
}

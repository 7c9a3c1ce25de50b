/** Test helper: a `window.bridge` whose main side each test scripts per channel. */
import type { Bridge, ChatStreamEvent, IpcResult } from '../../../shared/ipc/contract';

type Calls = Record<string, unknown[]>;

/** Records what the renderer sent; unscripted channels answer `{ ok: true }`. An answer may stay pending. */
export function fakeBridge(answers: Partial<Record<string, (args: unknown) => IpcResult<unknown> | Promise<IpcResult<unknown>>>>) {
  const calls: Calls = {};
  const streamListeners = new Set<(payload: ChatStreamEvent) => void>();
  const endedListeners = new Set<(payload: { reason: 'auth_refresh_401' }) => void>();
  const storageListeners = new Set<() => void>();
  const method = (channel: string) => async (args?: unknown) => {
    (calls[channel] ??= []).push(args);
    return (await answers[channel]?.(args)) ?? { ok: true, value: { ok: true } };
  };
  const bridge = {
    http: { fetch: method('http:fetch'), cancel: method('http:cancel') },
    session: {
      signIn: method('session:signIn'),
      restore: method('session:restore'),
      signOut: method('session:signOut'),
      storageStatus: method('session:storageStatus'),
      onEnded: (listener: (payload: { reason: 'auth_refresh_401' }) => void) => {
        endedListeners.add(listener);
        return () => endedListeners.delete(listener);
      },
      onStorageUnavailable: (listener: () => void) => {
        storageListeners.add(listener);
        return () => storageListeners.delete(listener);
      },
    },
    chat: {
      start: method('chat:start'),
      cancel: method('chat:cancel'),
      onStream: (listener: (payload: ChatStreamEvent) => void) => {
        streamListeners.add(listener);
        return () => streamListeners.delete(listener);
      },
    },
    settings: { get: method('settings:get'), set: method('settings:set') },
    window: { openAdmin: method('window:openAdmin') },
    shell: { openExternal: method('shell:openExternal') },
  } as unknown as Bridge;
  const emit = (payload: ChatStreamEvent) => streamListeners.forEach((listener) => listener(payload));
  return { bridge, calls, emit, endedListeners, streamListeners, storageListeners };
}

import { buildBridge, type BridgeIpc } from '../../../src/preload/buildBridge';

/**
 * The preload stand-in, bundled for the page and run before any of its scripts (an init script):
 * the same `buildBridge` as src/preload/index.ts over a loopback transport instead of ipcRenderer.
 * `__desktopIpcInvoke` is the harness's binding to main (its answer or rejection is ipcRenderer's);
 * main's events come in through `__desktopIpcEvent`. Electron's context isolation, which keeps these
 * two names out of the page's reach, is not reproduced: the built bundle's tests cover it.
 */
type Listener = (event: unknown, payload: unknown) => void;
const page = globalThis as unknown as {
  __desktopIpcInvoke(channel: string, args: unknown[]): Promise<unknown>;
  __desktopIpcEvent(channel: string, payload: unknown): void;
};
const listeners = new Map<string, Set<Listener>>();

const ipc: BridgeIpc = {
  invoke: (channel, ...args: unknown[]) => page.__desktopIpcInvoke(channel, args),
  on(channel, listener) {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    set.add(listener);
  },
  removeListener(channel, listener) {
    listeners.get(channel)?.delete(listener);
  },
};

page.__desktopIpcEvent = (channel, payload) => {
  for (const listener of listeners.get(channel) ?? []) listener({}, payload);
};
// As contextBridge.exposeInMainWorld: a property the page cannot replace.
Object.defineProperty(globalThis, 'bridge', { value: buildBridge(ipc), enumerable: true, writable: false, configurable: false });

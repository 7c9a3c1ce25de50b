import { EVENT_CHANNELS, INVOKE_CHANNELS, eventMethodName, splitChannel } from '../shared/ipc/channels';
import type { Bridge } from '../shared/ipc/contract';

/** The two ipcRenderer calls the bridge needs; nothing else of ipcRenderer is reachable. */
export interface BridgeIpc {
  invoke(channel: string, args: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

/**
 * Builds the closed `window.bridge` object from the channel list: one frozen object per domain
 * with a method per invoke channel and an `on<Event>` subscriber per event channel. Each method is
 * bound to its own channel, so the renderer cannot name a channel, and listeners receive only the
 * payload, never the IpcRendererEvent (whose `sender` is ipcRenderer itself).
 */
export function buildBridge(ipc: BridgeIpc): Bridge {
  const domains: Record<string, Record<string, unknown>> = {};
  const domainOf = (domain: string) => (domains[domain] ??= {});

  for (const channel of INVOKE_CHANNELS) {
    const [domain, action] = splitChannel(channel);
    domainOf(domain)[action] = (args?: unknown) => ipc.invoke(channel, args);
  }
  for (const channel of EVENT_CHANNELS) {
    const [domain, action] = splitChannel(channel);
    domainOf(domain)[eventMethodName(action)] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`${channel}: listener must be a function`);
      const forward = (_event: unknown, payload: unknown) => listener(payload);
      ipc.on(channel, forward);
      return () => {
        ipc.removeListener(channel, forward);
      };
    };
  }
  for (const methods of Object.values(domains)) Object.freeze(methods);
  return Object.freeze(domains) as unknown as Bridge;
}

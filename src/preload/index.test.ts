import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../shared/ipc/channels';

const exposed: Array<[string, unknown]> = [];
const ipcRenderer = {
  invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null })),
  on: vi.fn(),
  removeListener: vi.fn(),
  send: vi.fn(),
  sendSync: vi.fn(),
};

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
  ipcRenderer,
}));

type AnyBridge = Record<string, Record<string, (...args: unknown[]) => unknown>>;
let bridge: AnyBridge;

beforeAll(async () => {
  await import('./index');
  bridge = exposed[0]?.[1] as AnyBridge;
});

/** Every function reachable from the exposed object, with its path. */
function functionsOf(value: unknown, path = 'bridge'): string[] {
  if (typeof value === 'function') return [path];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, child]) => functionsOf(child, `${path}.${key}`));
  return [];
}

describe('preload', () => {
  it('exposes one object named bridge and nothing else', () => {
    expect(exposed.map(([key]) => key)).toEqual(['bridge']);
  });

  it('exposes exactly one method per contract channel, no ipcRenderer and no generic invoke', () => {
    const expected = [
      ...INVOKE_CHANNELS.map((channel) => `bridge.${channel.replace(':', '.')}`),
      ...EVENT_CHANNELS.map((channel) => {
        const [domain, action] = channel.split(':') as [string, string];
        return `bridge.${domain}.on${action[0]!.toUpperCase()}${action.slice(1)}`;
      }),
    ].sort();
    expect(functionsOf(bridge).sort()).toEqual(expected);
    expect(JSON.stringify(Object.keys(bridge))).not.toMatch(/invoke|ipc|send/i);
  });

  it('is frozen, so the page cannot add or swap methods', () => {
    expect(Object.isFrozen(bridge)).toBe(true);
    for (const domain of Object.values(bridge)) expect(Object.isFrozen(domain)).toBe(true);
    expect(() => {
      (bridge.session as Record<string, unknown>).signIn = () => 'stolen';
    }).toThrow(TypeError);
  });

  it('forwards a call to its own channel only', async () => {
    await bridge.session!.signIn!({ email: 'a@b.c', password: 'secret' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('session:signIn', { email: 'a@b.c', password: 'secret' });
    await bridge.chat!.cancel!({ requestId: 'x' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('chat:cancel', { requestId: 'x' });
    await bridge.http!.cancel!({ requestId: 'y' });
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('http:cancel', { requestId: 'y' });
    expect(ipcRenderer.send).not.toHaveBeenCalled();
    expect(ipcRenderer.sendSync).not.toHaveBeenCalled();
  });

  it('hands listeners the payload only, never the IPC event, and unsubscribes', () => {
    const listener = vi.fn();
    const unsubscribe = bridge.session!.onEnded!(listener) as () => void;
    const [channel, forward] = ipcRenderer.on.mock.lastCall as [string, (event: unknown, payload: unknown) => void];
    expect(channel).toBe('session:ended');
    forward({ sender: ipcRenderer }, { reason: 'auth_refresh_401' });
    expect(listener).toHaveBeenCalledWith({ reason: 'auth_refresh_401' });
    expect(listener.mock.calls[0]).toHaveLength(1);
    unsubscribe();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith('session:ended', forward);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../src/shared/ipc/channels';

/**
 * Runs the BUILT main bundle (out/main/index.js) against an injected Electron and checks what it
 * really does at start-up: window options, protocol, IPC channels, permission and navigation
 * handling. Builds first when the bundle is missing or older than the sources.
 */
const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'out/main/index.js');

function newestSource(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

const electron = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown;
  const state = {
    windows: [] as Array<{ options: Record<string, unknown>; loaded: string[] }>,
    appListeners: new Map<string, Listener>(),
    ipcChannels: [] as string[],
    privileged: [] as unknown[],
    protocolHandlers: [] as string[],
    permissionHandler: null as null | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
    sandboxEnabled: false,
    userData: '',
  };
  class BrowserWindow {
    webContents = { id: state.windows.length + 1, send: () => undefined };
    constructor(options: Record<string, unknown>) {
      state.windows.push({ options, loaded: [] });
    }
    private get record() {
      return state.windows[this.webContents.id - 1]!;
    }
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
    once() {}
    on() {}
    isDestroyed() {
      return false;
    }
    maximize() {}
  }
  const module = {
    app: {
      isPackaged: true,
      setAppUserModelId: () => undefined,
      enableSandbox: () => {
        state.sandboxEnabled = true;
      },
      requestSingleInstanceLock: () => true,
      quit: () => undefined,
      exit: () => undefined,
      getPath: () => state.userData,
      whenReady: () => Promise.resolve(),
      on: (name: string, listener: Listener) => state.appListeners.set(name, listener),
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string) => state.ipcChannels.push(channel) },
    net: { fetch: () => Promise.reject(new Error('no network in this test')) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => state.privileged.push(...schemes),
      handle: (scheme: string) => state.protocolHandlers.push(scheme),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof state.permissionHandler) => {
          state.permissionHandler = handler;
        },
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: () => undefined },
      },
    },
    shell: { openExternal: () => Promise.resolve() },
  };
  return { state, module };
});

vi.mock('electron', () => ({ ...electron.module, default: electron.module }));

beforeAll(async () => {
  const sourcesChanged = ['src/main', 'src/preload', 'src/shared'].some((dir) => !existsSync(bundle) || newestSource(join(root, dir)) > statSync(bundle).mtimeMs);
  if (sourcesChanged) execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'ignore' });
  electron.state.userData = mkdtempSync(join(tmpdir(), 'desktop-bundle-'));
  await import(/* @vite-ignore */ bundle);
  await vi.waitFor(() => expect(electron.state.windows).toHaveLength(1));
}, 120_000);

describe('built main bundle', () => {
  it('opens the main window sandboxed, isolated, without Node and without devtools', () => {
    const [window] = electron.state.windows;
    const preferences = window!.options.webPreferences as Record<string, unknown>;
    expect(preferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
    expect(preferences.preload).toMatch(/out[\\/]preload[\\/]index\.cjs$/);
    expect(existsSync(preferences.preload as string)).toBe(true);
    expect(electron.state.sandboxEnabled).toBe(true);
  });

  it('loads the renderer from the app:// bundle origin, on first run at the server setup', () => {
    expect(electron.state.windows[0]!.loaded).toEqual(['app://bundle/setup']);
    expect(electron.state.protocolHandlers).toEqual(['app']);
    expect(electron.state.privileged).toContainEqual({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) });
  });

  it('registers exactly the invoke channels of the contract', () => {
    expect([...electron.state.ipcChannels].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('refuses every permission request', () => {
    const answers: boolean[] = [];
    electron.state.permissionHandler!({}, 'media', (granted) => answers.push(granted));
    electron.state.permissionHandler!({}, 'notifications', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
  });

  it('hardens every webContents: external navigation blocked, new windows denied', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((details: { url: string }) => unknown) | undefined;
    const contents = {
      id: 42,
      on: (name: string, listener: (event: { preventDefault(): void }, url: string) => void) => listeners.set(name, listener),
      setWindowOpenHandler: (handler: typeof openHandler) => {
        openHandler = handler;
      },
    };
    electron.state.appListeners.get('web-contents-created')!({}, contents);
    const preventDefault = vi.fn();
    listeners.get('will-navigate')!({ preventDefault }, 'https://elsewhere.example/');
    expect(preventDefault).toHaveBeenCalled();
    expect(openHandler!({ url: 'https://elsewhere.example/' })).toEqual({ action: 'deny' });
  });
});

describe('electron-builder.yml', () => {
  interface BuilderConfig {
    appId: string;
    productName: string;
    asar: boolean;
    electronFuses: Record<string, boolean>;
    win: { target: string[]; icon: string };
    mac: { target: string[]; icon: string };
    linux: { target: string[]; icon: string };
  }
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

  it('packs the app into asar with the security fuses set', () => {
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('builds NSIS, dmg, AppImage and deb with the app id main uses for the keychain', async () => {
    const { APP_ID, PRODUCT_NAME } = await import('../../src/main/appIdentity');
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(config.win.target).toContain('nsis');
    expect(config.mac.target).toContain('dmg');
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    for (const platform of [config.win, config.mac, config.linux]) expect(existsSync(join(root, platform.icon))).toBe(true);
  });
});

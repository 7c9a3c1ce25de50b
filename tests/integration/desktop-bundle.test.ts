import { execFileSync } from 'node:child_process';
import { createRequire, isBuiltin } from 'node:module';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../src/shared/ipc/channels';
import { packDesktop } from '../../scripts/packDesktop.mjs';

/**
 * Runs the BUILT main bundle (out/main/index.js) against an injected Electron and checks what it
 * really does at start-up: window options, protocol, IPC channels, permission and navigation
 * handling. Builds first when the bundle is missing or older than the sources.
 */
const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'out/main/index.js');
/**
 * Nothing here reads a database: the PGlite pass of `npm test` runs it, and the PostgreSQL pass
 * (TEST_DATABASE_URL) skips it rather than pack the app a second time.
 */
const onPostgresPass = Boolean(process.env.TEST_DATABASE_URL);

function newestSource(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

const electron = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown;
  const state = {
    windows: [] as Array<{ options: Record<string, unknown>; loaded: string[]; minimized: boolean; restored: number; focused: number }>,
    appListeners: new Map<string, Listener>(),
    ipcHandlers: new Map<string, Listener>(),
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    permissionHandler: null as null | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
    permissionCheckHandler: null as null | ((contents: unknown, permission: string, origin: string, details: unknown) => boolean),
    networkCalls: [] as Array<{ url: string; init: RequestInit }>,
    sandboxEnabled: false,
    /** What requestSingleInstanceLock answers: false plays a second launch while the app runs. */
    lockGranted: true,
    quitCalls: 0,
    readyWaits: 0,
    userData: '',
  };
  class BrowserWindow {
    webContents = { id: state.windows.length + 1, send: () => undefined };
    constructor(options: Record<string, unknown>) {
      state.windows.push({ options, loaded: [], minimized: false, restored: 0, focused: 0 });
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
    isMinimized() {
      return this.record.minimized;
    }
    restore() {
      this.record.minimized = false;
      this.record.restored += 1;
    }
    focus() {
      this.record.focused += 1;
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
      requestSingleInstanceLock: () => state.lockGranted,
      quit: () => {
        state.quitCalls += 1;
      },
      exit: () => undefined,
      getPath: () => state.userData,
      whenReady: () => {
        state.readyWaits += 1;
        return Promise.resolve();
      },
      on: (name: string, listener: Listener) => state.appListeners.set(name, listener),
    },
    BrowserWindow,
    ipcMain: { handle: (channel: string, listener: Listener) => state.ipcHandlers.set(channel, listener) },
    net: {
      fetch: (url: string, init: RequestInit) => {
        state.networkCalls.push({ url, init });
        return Promise.resolve(Response.json({ code: 'unauthorized', message: 'No server in this test' }, { status: 401 }));
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => state.privileged.push(...schemes),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => state.protocolHandlers.set(scheme, handler),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof state.permissionHandler) => {
          state.permissionHandler = handler;
        },
        setPermissionCheckHandler: (handler: typeof state.permissionCheckHandler) => {
          state.permissionCheckHandler = handler;
        },
        webRequest: { onHeadersReceived: () => undefined },
        getUserAgent: () => 'Mozilla/5.0 ChatbotPlatform-test Electron',
      },
    },
    shell: { openExternal: () => Promise.resolve() },
  };
  return { state, module };
});

vi.mock('electron', () => ({ ...electron.module, default: electron.module }));

beforeAll(async () => {
  // The build configuration counts too: it decides what main bundles and what it leaves to node_modules.
  const newest = Math.max(
    ...['src/main', 'src/preload', 'src/shared'].map((dir) => newestSource(join(root, dir))),
    statSync(join(root, 'electron.vite.config.ts')).mtimeMs,
  );
  const sourcesChanged = !existsSync(bundle) || newest > statSync(bundle).mtimeMs;
  // electron-vite's own script under this Node: no npx, whose shim Windows runs only through a shell.
  if (sourcesChanged) execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'ignore' });
  electron.state.userData = mkdtempSync(join(tmpdir(), 'desktop-bundle-'));
  await import(/* @vite-ignore */ bundle);
  await vi.waitFor(() => expect(electron.state.windows).toHaveLength(1));
}, 120_000);

describe.skipIf(onPostgresPass)('built main bundle', () => {
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
      experimentalFeatures: false,
      devTools: false,
    });
    expect(preferences).not.toHaveProperty('enableBlinkFeatures');
    expect(preferences.preload).toMatch(/out[\\/]preload[\\/]index\.cjs$/);
    expect(existsSync(preferences.preload as string)).toBe(true);
    expect(electron.state.sandboxEnabled).toBe(true);
  });

  it('loads the renderer from the app:// bundle origin, on first run at the server setup', () => {
    expect(electron.state.windows[0]!.loaded).toEqual(['app://bundle/setup']);
    expect([...electron.state.protocolHandlers.keys()]).toEqual(['app']);
    expect(electron.state.privileged).toContainEqual({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) });
  });

  it('registers exactly the invoke channels of the contract', () => {
    expect([...electron.state.ipcHandlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
  });

  it('refuses every permission request', () => {
    const answers: boolean[] = [];
    electron.state.permissionHandler!({}, 'media', (granted) => answers.push(granted));
    electron.state.permissionHandler!({}, 'notifications', (granted) => answers.push(granted));
    expect(answers).toEqual([false, false]);
  });

  it('answers every permission check no as well, so no permission is even reported as granted', () => {
    const check = electron.state.permissionCheckHandler!;
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'hid', 'serial']) {
      expect(check({}, permission, 'app://bundle', {}), permission).toBe(false);
    }
  });

  it('serves the renderer with a CSP whose images come only from the app, data:, blob: and the API origin', async () => {
    const page = await electron.state.protocolHandlers.get('app')!(new Request('app://bundle/setup'));
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src 'self' data: blob: http://localhost:3000;");
    expect(csp).not.toMatch(/img-src[^;]*https:(?!\/\/)/);
  });

  it('sends its own requests without the cookie jar', async () => {
    const signIn = electron.state.ipcHandlers.get('session:signIn')!;
    const page = { sender: { id: 1, send: () => undefined }, senderFrame: { url: 'app://bundle/auth', parent: null } };
    await signIn(page, { email: 'member@example.com', password: 'secret' });
    const call = electron.state.networkCalls.at(-1)!;
    expect(call.url).toBe('http://localhost:3000/api/v1/auth/sign-in/');
    expect(call.init.credentials).toBe('omit');
  });

  it('a second launch only brings the running window back: restored, focused, no new window', () => {
    const [main] = electron.state.windows;
    main!.minimized = true;
    electron.state.appListeners.get('second-instance')!({}, ['chatbot-platform'], '/');
    expect(electron.state.windows).toHaveLength(1);
    expect(main).toMatchObject({ minimized: false, restored: 1, focused: 1 });
  });

  it('a second process that does not get the single-instance lock quits without starting', async () => {
    const { windows, quitCalls, readyWaits } = electron.state;
    const before = { windows: windows.length, quitCalls, readyWaits };
    electron.state.lockGranted = false;
    try {
      await import(/* @vite-ignore */ `${bundle}?second-instance`);
    } finally {
      electron.state.lockGranted = true;
    }
    expect(electron.state.quitCalls).toBe(before.quitCalls + 1);
    expect(electron.state.readyWaits).toBe(before.readyWaits);
    expect(electron.state.windows).toHaveLength(before.windows);
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

describe.skipIf(onPostgresPass)('electron-builder.yml', () => {
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

  it('packs the app into asar with every security fuse set', () => {
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('leaves no fuse of the Electron fuse wire unset', () => {
    // The fuse list electron-builder flips, resolved as electron-builder resolves it (RunAsNode → runAsNode).
    const fromBuilder = createRequire(join(root, 'node_modules/app-builder-lib/package.json'));
    const { FuseV1Options } = fromBuilder('@electron/fuses') as { FuseV1Options: Record<string, string | number> };
    const fuses = Object.keys(FuseV1Options).filter((name) => Number.isNaN(Number(name)));
    expect(fuses.length).toBeGreaterThanOrEqual(8);
    for (const fuse of fuses) expect(config.electronFuses, fuse).toHaveProperty(`${fuse.charAt(0).toLowerCase()}${fuse.slice(1)}`, expect.any(Boolean));
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

describe.skipIf(onPostgresPass)('the packed Linux app (electron-builder --dir against a stand-in Electron)', () => {
  const fromBuilder = createRequire(join(root, 'node_modules/app-builder-lib/package.json'));
  const asar = fromBuilder('@electron/asar') as {
    listPackage(archive: string, options?: object): string[];
    statFile(archive: string, path: string): { unpacked?: boolean };
  };
  const fuses = fromBuilder('@electron/fuses') as {
    FuseV1Options: Record<string, string | number>;
    getCurrentFuseWire(path: string): Promise<Record<string, unknown>>;
  };
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as { electronFuses: Record<string, boolean> };
  const fuseNames = Object.keys(fuses.FuseV1Options).filter((name) => Number.isNaN(Number(name)));
  const configured = (fuse: string) => config.electronFuses[`${fuse.charAt(0).toLowerCase()}${fuse.slice(1)}`];
  let work: string | undefined;
  let resourcesDir: string;
  let files: string[];

  beforeAll(async () => {
    // `npm test` packed it beside the builds (scripts/packDesktop.mjs); run alone, the test packs it.
    const started = Date.now();
    if (process.env.DESKTOP_PACK_DIR) resourcesDir = process.env.DESKTOP_PACK_DIR;
    else {
      work = mkdtempSync(join(tmpdir(), 'desktop-pack-'));
      resourcesDir = await packDesktop(work);
    }
    files = asar.listPackage(join(resourcesDir, 'app.asar'), { isPack: false });
    const megabytes = (statSync(join(resourcesDir, 'app.asar')).size / 1024 / 1024).toFixed(1);
    console.log(`app.asar: ${megabytes} MB, ${files.length} entries${work ? `, packed in ${((Date.now() - started) / 1000).toFixed(1)} s` : ''}`);
  }, 60_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The packages the archive holds files of (`@scope/name` or `name`). */
  const packagesIn = (list: string[]) => [
    ...new Set(list.flatMap((file) => file.replaceAll('\\', '/').match(/^\/node_modules\/((?:@[^/]+\/)?[^/@][^/]*)\//)?.[1] ?? [])),
  ];

  it('holds the built main, preload and renderer, and of node_modules only keytar: nothing of the server', () => {
    for (const entry of ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json']) expect(files).toContain(entry);
    expect(packagesIn(files)).toEqual(['keytar']);
    const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const server of [
      'fastify',
      'pg-boss',
      '@aws-sdk/client-s3',
      'ai',
      'mammoth',
      'unpdf',
      'ldapts',
      'nodemailer',
      'drizzle-orm',
      '@electric-sql/pglite',
    ]) {
      expect(Object.keys(dependencies), server).toContain(server);
    }
    const shipped = Object.keys(dependencies).filter((name) => files.some((file) => file.startsWith(`/node_modules/${name}/`)));
    expect(shipped).toEqual(['keytar']);
    expect(files.filter((file) => file.startsWith('/src') || file.startsWith('/dist-server') || file.startsWith('/tests'))).toEqual([]);
  });

  it('everything main loads at run time is inside: Electron, Node built-ins and the unpacked native keytar', () => {
    const main = readFileSync(join(root, 'out/main/index.js'), 'utf8');
    const specifiers = [...main.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"'./\s,][^"'\s]*)["']/g)].map((match) => match[1]!);
    const packages = [...new Set(specifiers.filter((name) => !isBuiltin(name) && name !== 'electron'))];
    expect(packages).toEqual(['keytar']);
    expect(asar.statFile(join(resourcesDir, 'app.asar'), 'node_modules/keytar/build/Release/keytar.node').unpacked).toBe(true);
    expect(existsSync(join(resourcesDir, 'app.asar.unpacked/node_modules/keytar/build/Release/keytar.node'))).toBe(true);
    expect(existsSync(join(resourcesDir, 'app.asar.unpacked/node_modules/keytar/lib/keytar.js'))).toBe(true);
  });

  it('flips every fuse of the packed binary as electron-builder.yml sets it', async () => {
    // The stand-in started with every fuse the other way round (scripts/packDesktop.mjs).
    const wire = await fuses.getCurrentFuseWire(join(resourcesDir, '../chatbot-platform'));
    for (const fuse of fuseNames) {
      const index = fuses.FuseV1Options[fuse] as number;
      expect(wire[index], fuse).toBe(configured(fuse) ? 49 : 48);
    }
  });
});

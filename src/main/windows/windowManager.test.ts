import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindow } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { createWindowManager } from './windowManager';
import { createWindowStateStore } from './windowState';

/** Just enough of BrowserWindow to watch what the manager does with it. */
class FakeWindow {
  static created: FakeWindow[] = [];
  listeners = new Map<string, () => void>();
  loaded: string[] = [];
  focused = 0;
  destroyed = false;
  webContents = { id: FakeWindow.created.length + 100, send: vi.fn() };
  constructor(readonly options: Record<string, unknown>) {
    FakeWindow.created.push(this);
  }
  loadURL(url: string) {
    this.loaded.push(url);
    return Promise.resolve();
  }
  on(name: string, listener: () => void) {
    this.listeners.set(name, listener);
  }
  once(name: string, listener: () => void) {
    this.listeners.set(name, listener);
  }
  isDestroyed = () => this.destroyed;
  isMinimized = () => false;
  isMaximized = () => false;
  getNormalBounds = () => ({ x: 40, y: 30, width: 900, height: 640 });
  focus() {
    this.focused += 1;
  }
  close() {
    this.listeners.get('close')?.();
    this.destroyed = true;
    this.listeners.get('closed')?.();
  }
}

async function manager({ needsSetup = false, statePath = '' } = {}) {
  FakeWindow.created = [];
  statePath ||= join(await mkdtemp(join(tmpdir(), 'windows-')), 'window-state.json');
  const windows = createWindowManager({
    BrowserWindow: FakeWindow as unknown as typeof BrowserWindow,
    windowState: await createWindowStateStore(statePath),
    workAreas: () => [{ x: 0, y: 0, width: 1920, height: 1080 }],
    preloadPath: '/app/out/preload/index.cjs',
    appOrigin: 'app://bundle',
    isDev: false,
    title: 'Chatbot Platform',
    needsSetup: () => needsSetup,
  });
  return { windows, statePath };
}

describe('window manager', () => {
  it('opens the admin console once, in its own secured window at /admin', async () => {
    const { windows } = await manager();
    windows.openMain();
    windows.openAdmin();
    windows.openAdmin();
    expect(FakeWindow.created).toHaveLength(2);
    const [main, admin] = FakeWindow.created as [FakeWindow, FakeWindow];
    expect(main.loaded).toEqual(['app://bundle/']);
    expect(admin.loaded).toEqual(['app://bundle/admin']);
    expect(admin.focused).toBe(1);
    expect(admin.options.webPreferences).toEqual(main.options.webPreferences);
    expect(admin.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, devTools: false });
  });

  it('opens the setup route on first run', async () => {
    const { windows } = await manager({ needsSetup: true });
    windows.openMain();
    expect(FakeWindow.created[0]!.loaded).toEqual(['app://bundle/setup']);
  });

  it('knows only its open windows as its own and reopens where a window was closed', async () => {
    const { windows, statePath } = await manager();
    const admin = windows.openAdmin() as unknown as FakeWindow;
    expect(windows.isOwnWebContents(admin.webContents.id)).toBe(true);
    expect(windows.isOwnWebContents(999)).toBe(false);
    admin.close();
    expect(windows.isOwnWebContents(admin.webContents.id)).toBe(false);
    // The state is written asynchronously on close; a restart reads it back.
    await vi.waitFor(async () => {
      const restarted = await manager({ statePath });
      const window = restarted.windows.openAdmin() as unknown as FakeWindow;
      expect(window.options).toMatchObject({ x: 40, y: 30, width: 900, height: 640 });
    });
  });
});

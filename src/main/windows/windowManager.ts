import type { BrowserWindow as ElectronBrowserWindow } from 'electron';
import { secureWebPreferences } from './security';
import { MIN_WINDOW_HEIGHT, MIN_WINDOW_WIDTH, type Rectangle, type WindowKind, type WindowStateStore } from './windowState';

export interface WindowManagerOptions {
  BrowserWindow: typeof ElectronBrowserWindow;
  windowState: WindowStateStore;
  /** Work areas of the connected displays, to drop a remembered position that is off-screen. */
  workAreas: () => Rectangle[];
  preloadPath: string;
  /** Origin the renderer is served from: the app:// bundle, or the Vite dev server in development. */
  appOrigin: string;
  isDev: boolean;
  iconPath?: string;
  title: string;
  /** True until the user confirmed server and workspace: the main window then opens the setup route. */
  needsSetup: () => boolean;
}

const DEFAULT_SIZE: Record<WindowKind, { width: number; height: number }> = {
  main: { width: 1280, height: 840 },
  admin: { width: 1360, height: 900 },
};
/** The admin console is the renderer's /admin route, in a window of its own. */
const START_PATH: Record<WindowKind, string> = { main: '/', admin: '/admin' };
const SETUP_PATH = '/setup';

/**
 * The app's windows: the member window and the admin console, each at most once, each with the
 * same web preferences, and each remembering its size and position when it closes.
 */
export function createWindowManager(options: WindowManagerOptions) {
  const windows = new Map<WindowKind, ElectronBrowserWindow>();

  function open(kind: WindowKind): ElectronBrowserWindow {
    const existing = windows.get(kind);
    if (existing && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.focus();
      return existing;
    }
    const restored = options.windowState.restore(kind, options.workAreas());
    const window = new options.BrowserWindow({
      ...DEFAULT_SIZE[kind],
      ...restored?.bounds,
      minWidth: MIN_WINDOW_WIDTH,
      minHeight: MIN_WINDOW_HEIGHT,
      show: false,
      title: options.title,
      ...(options.iconPath ? { icon: options.iconPath } : {}),
      webPreferences: secureWebPreferences(options.preloadPath, options.isDev),
    });
    if (restored?.maximized) window.maximize();
    window.once('ready-to-show', () => window.show());
    window.on('close', () => {
      void options.windowState.remember(kind, window.getNormalBounds(), window.isMaximized());
    });
    window.on('closed', () => windows.delete(kind));
    windows.set(kind, window);
    const startPath = kind === 'main' && options.needsSetup() ? SETUP_PATH : START_PATH[kind];
    void window.loadURL(`${options.appOrigin}${startPath}`);
    return window;
  }

  return {
    openMain: () => open('main'),
    openAdmin: () => open('admin'),
    isOwnWebContents: (id: number) => [...windows.values()].some((window) => !window.isDestroyed() && window.webContents.id === id),
    /** Sends an event to every open window (session ended, keychain unavailable). */
    broadcast(channel: string, payload: unknown): void {
      for (const window of windows.values()) if (!window.isDestroyed()) window.webContents.send(channel, payload);
    },
  };
}

export type WindowManager = ReturnType<typeof createWindowManager>;

import { EventEmitter } from 'node:events';
import type { Browser, BrowserContext, Frame, Page } from '@playwright/test';

/**
 * The part of Electron that src/main uses, over Playwright: each BrowserWindow is a page of one
 * browser context (the app's session, shared by its windows as Electron's default session is), `app://`
 * is served by the handler main registered with `protocol.handle`, and `ipcMain.handle` listeners
 * answer the preload stand-in's binding. The adapter passes calls through and decides nothing: which
 * window may call, what is refused, what is stored is main's.
 *
 * Chromium cannot load a custom scheme from a test, so the app's pages live at APP_HTTP_ORIGIN
 * and the adapter translates between the two at its edges: main sees `app://bundle/…` in every
 * frame URL and request, the browser sees http. A `.localhost` host makes it a secure context like
 * app:// (crypto.randomUUID) that may load images from a server on loopback: a public origin may
 * not (Chromium's local network access checks), a public https one would be mixed content.
 */
export const APP_HTTP_ORIGIN = 'http://bundle.localhost';
const APP_ORIGIN = 'app://bundle';

export const toAppUrl = (url: string) => (url.startsWith(`${APP_HTTP_ORIGIN}/`) ? `${APP_ORIGIN}${url.slice(APP_HTTP_ORIGIN.length)}` : url);
export const toBrowserUrl = (url: string) => (url.startsWith(`${APP_ORIGIN}/`) ? `${APP_HTTP_ORIGIN}${url.slice(APP_ORIGIN.length)}` : url);

/** What the operating system does around the app: where it keeps its data, and its browser. */
export interface HarnessHost {
  browser: Browser;
  userData: string;
  /** The preload stand-in, bundled for the page. */
  preloadScript: string;
  /** The "system browser" (`shell.openExternal`). */
  openExternal(url: string): Promise<void>;
  /** The screen's work area, which main keeps remembered windows inside. */
  workArea: { x: number; y: number; width: number; height: number };
}

/** A message main sent to a window, as recorded for the specs. */
export interface SentEvent {
  webContentsId: number;
  channel: string;
  payload: unknown;
}

type InvokeListener = (event: unknown, ...args: unknown[]) => unknown;
type ProtocolHandler = (request: Request) => Promise<Response>;

export function createElectronAdapter(host: HarnessHost) {
  const app = Object.assign(new EventEmitter(), {
    isPackaged: true,
    setAppUserModelId: () => undefined,
    enableSandbox: () => undefined,
    getPath: (name: string) => {
      if (name !== 'userData') throw new Error(`app.getPath('${name}') is not provided by the desktop harness`);
      return host.userData;
    },
    requestSingleInstanceLock: () => true,
    whenReady: () => contextReady.then(() => undefined),
    quit: () => app.emit('quit'),
    exit: (code: number) => app.emit('exit-requested', code),
  });

  const invokeListeners = new Map<string, InvokeListener>();
  const ipcMain = {
    handle(channel: string, listener: InvokeListener) {
      if (invokeListeners.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      invokeListeners.set(channel, listener);
    },
  };

  const protocolHandlers = new Map<string, ProtocolHandler>();
  const protocol = {
    registerSchemesAsPrivileged: () => undefined,
    handle: (scheme: string, handler: ProtocolHandler) => void protocolHandlers.set(scheme, handler),
  };

  const sent: SentEvent[] = [];
  const answers: Array<{ channel: string; answer: unknown }> = [];
  const windows = new Set<HarnessWindow>();
  let nextWebContentsId = 1;

  /** The app's session: one browser context for every window, with the routes and binding main's pieces answer. */
  const contextReady: Promise<BrowserContext> = (async () => {
    const context = await host.browser.newContext({ viewport: null });
    await context.route(`${APP_HTTP_ORIGIN}/**`, async (route) => {
      const handler = protocolHandlers.get('app');
      if (!handler) return route.abort('failed');
      const request = route.request();
      const response = await handler(new Request(toAppUrl(request.url()), { method: request.method(), headers: request.headers() }));
      await route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body: Buffer.from(await response.arrayBuffer()) });
    });
    await context.exposeBinding('__desktopIpcInvoke', async (source, channel: string, args: unknown[]) => {
      const listener = invokeListeners.get(channel);
      if (!listener) throw new Error(`No handler registered for '${channel}'`);
      const answer = await listener({ sender: senderOf(source.page), senderFrame: frameOf(source.frame) }, ...args);
      answers.push({ channel, answer });
      return answer;
    });
    await context.addInitScript({ content: host.preloadScript });
    return context;
  })();

  /** The webContents of a page: its window's, or one of its own for a page no window of main's holds. */
  const strangers = new WeakMap<Page, { id: number; send(): void }>();
  const senderOf = (page: Page) => {
    const window = [...windows].find((candidate) => candidate.page === page);
    if (window) return window.webContents;
    if (!strangers.has(page)) strangers.set(page, { id: nextWebContentsId++, send: () => undefined });
    return strangers.get(page)!;
  };

  /** Electron's senderFrame: its URL as main would see it, and its parent (null for a top frame). */
  const frameOf = (frame: Frame) => ({ url: toAppUrl(frame.url()), parent: frame.parentFrame() });

  class HarnessWindow extends EventEmitter {
    page: Page | null = null;
    private readonly ready: Promise<Page>;
    private destroyed = false;
    private maximized = false;
    private bounds: { x: number; y: number; width: number; height: number };
    private windowOpenHandler: ((details: { url: string }) => { action: 'deny' | 'allow' }) | null = null;
    readonly webContents: EventEmitter & {
      id: number;
      send(channel: string, payload: unknown): void;
      setWindowOpenHandler(handler: HarnessWindow['windowOpenHandler']): void;
      getURL(): string;
    };

    constructor(readonly options: { x?: number; y?: number; width: number; height: number; webPreferences: Record<string, unknown> }) {
      super();
      this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width, height: options.height };
      const events = new EventEmitter();
      // Main's events reach the page in the order main sent them.
      let delivery = Promise.resolve();
      this.webContents = Object.assign(events, {
        id: nextWebContentsId++,
        send: (channel: string, payload: unknown) => {
          sent.push({ webContentsId: this.webContents.id, channel, payload });
          delivery = delivery.then(() =>
            this.ready
              .then((page) =>
                page.evaluate(([name, value]) => (globalThis as { __desktopIpcEvent?: (c: string, p: unknown) => void }).__desktopIpcEvent?.(name, value), [
                  channel,
                  payload,
                ] as const),
              )
              // A page closing or navigating drops the message, as a renderer going away does.
              .catch(() => undefined),
          );
        },
        setWindowOpenHandler: (handler: HarnessWindow['windowOpenHandler']) => {
          this.windowOpenHandler = handler;
        },
        getURL: () => toAppUrl(this.page?.url() ?? ''),
      });
      windows.add(this);
      app.emit('web-contents-created', {}, this.webContents);
      this.ready = contextReady.then(async (context) => {
        const page = await context.newPage();
        this.page = page;
        await page.setViewportSize({ width: this.bounds.width, height: this.bounds.height });
        page.on('close', () => this.closed());
        if (process.env.DESKTOP_HARNESS_DEBUG) {
          page.on('console', (message) => console.log(`[window ${this.webContents.id}] ${message.type()}: ${message.text()}`));
          page.on('pageerror', (error) => console.log(`[window ${this.webContents.id}] page error: ${error.stack}`));
          page.on('requestfailed', (request) => console.log(`[window ${this.webContents.id}] failed: ${request.url()} ${request.failure()?.errorText}`));
        }
        // A new window the page asks for goes through main's handler, which may deny it (Electron allows one without a handler).
        page.on('popup', (popup) => {
          if (this.windowOpenHandler?.({ url: toAppUrl(popup.url()) }).action === 'deny') void popup.close();
        });
        // Navigations of the top frame are offered to main's will-navigate listeners first.
        await page.route('**/*', async (route) => {
          const request = route.request();
          if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return route.fallback();
          let prevented = false;
          this.webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, toAppUrl(request.url()));
          return prevented ? route.abort('aborted') : route.fallback();
        });
        return page;
      });
    }

    async loadURL(url: string): Promise<void> {
      const page = await this.ready;
      await page.goto(toBrowserUrl(url));
      this.emit('ready-to-show');
    }

    private closed() {
      if (this.destroyed) return;
      this.emit('close', { preventDefault: () => undefined });
      this.destroyed = true;
      windows.delete(this);
      this.webContents.emit('destroyed');
      this.emit('closed');
      if (windows.size === 0) app.emit('window-all-closed');
    }

    close() {
      void this.ready.then((page) => page.close());
    }
    show = () => undefined;
    focus = () => void this.page?.bringToFront();
    restore = () => undefined;
    isDestroyed = () => this.destroyed;
    isMinimized = () => false;
    maximize = () => void (this.maximized = true);
    isMaximized = () => this.maximized;
    /** The size the user left the window at (the page's viewport), where it was put. */
    getNormalBounds = () => ({ ...this.bounds, ...(this.page?.viewportSize() ?? {}) });
  }

  const electron = {
    app,
    BrowserWindow: HarnessWindow,
    ipcMain,
    protocol,
    net: { fetch: (url: string, init: RequestInit) => fetch(url, init) },
    screen: { getAllDisplays: () => [{ workArea: host.workArea }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
        getUserAgent: () => `Mozilla/5.0 Chrome/${host.browser.version()} ChatbotPlatform-desktop-harness`,
        webRequest: { onHeadersReceived: () => undefined },
      },
    },
    shell: { openExternal: (url: string) => host.openExternal(url) },
  };

  return {
    electron,
    /** The app's open windows, oldest first. */
    windows: () => [...windows],
    /** Every message main sent to a window so far. */
    sent,
    /** Every answer main gave the bridge so far. */
    answers,
    context: () => contextReady,
  };
}

export type ElectronAdapter = ReturnType<typeof createElectronAdapter>;

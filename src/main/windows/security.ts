/**
 * The security settings of every window (DESIGN §5). Kept in one place so the main window, the
 * admin console and the bundle test see exactly the same values.
 */
export function secureWebPreferences(preloadPath: string, isDev: boolean) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    // No experimental web platform features, and no Blink features switched on (`enableBlinkFeatures` stays unset).
    experimentalFeatures: false,
    devTools: isDev,
  } as const;
}

/**
 * The renderer's Content-Security-Policy. The renderer makes no network calls of its own (HTTP goes
 * through the bridge), so connect-src is the app itself. Images come only from the app, `data:`,
 * `blob:` and the API origin: any other host would let injected markup send a beacon (an <img> whose
 * URL carries data) out of the app. Media may come from any https origin: a video policy is an https URL
 * a tenant admin chose, played on the sign-up page (no markup the app renders makes a <video>).
 * Development adds what the Vite dev server needs (inline React
 * refresh preamble, HMR websocket).
 */
export function contentSecurityPolicy(options: { apiOrigin: string | null; devServerOrigin: string | null }): string {
  const dev = options.devServerOrigin;
  const devWebSocket = dev ? dev.replace(/^http/, 'ws') : null;
  const directives: Record<string, string[]> = {
    'default-src': ["'none'"],
    'script-src': ["'self'", ...(dev ? ["'unsafe-inline'"] : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(options.apiOrigin ? [options.apiOrigin] : [])],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'https:'],
    'connect-src': ["'self'", ...(devWebSocket ? [devWebSocket] : [])],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-src': ["'none'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The parts of webContents the hardening touches. */
export interface HardenableContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export function isWebLink(url: string): boolean {
  return URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol);
}

/**
 * No window ever leaves our app: navigation and redirects to anything but the app's own pages are
 * cancelled, new windows denied and webviews refused. Web links open in the system browser instead.
 */
export function hardenWebContents(contents: HardenableContents, options: { isAppUrl: (url: string) => boolean; openExternal: (url: string) => void }): void {
  contents.on('will-navigate', (event, url) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    if (isWebLink(url)) options.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!options.isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) options.openExternal(url);
    return { action: 'deny' };
  });
}

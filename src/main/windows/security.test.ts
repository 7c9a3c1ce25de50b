import { describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy, hardenWebContents, secureWebPreferences, type HardenableContents } from './security';

function fakeContents() {
  const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  const contents = {
    on: (name: string, listener: (event: { preventDefault(): void }, url: string) => void) => listeners.set(name, listener),
    setWindowOpenHandler: (handler: typeof openHandler) => {
      openHandler = handler;
    },
  } as unknown as HardenableContents;
  const fire = (name: string, url = '') => {
    const event = { preventDefault: vi.fn() };
    listeners.get(name)!(event, url);
    return event.preventDefault.mock.calls.length > 0;
  };
  return { contents, fire, openWindow: (url: string) => openHandler!({ url }) };
}

describe('window hardening', () => {
  const isAppUrl = (url: string) => url.startsWith('app://bundle/');

  it('blocks navigation away from the app and sends web links to the system browser', () => {
    const openExternal = vi.fn();
    const { contents, fire } = fakeContents();
    hardenWebContents(contents, { isAppUrl, openExternal });
    expect(fire('will-navigate', 'https://phishing.example/login')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://phishing.example/login');
    expect(fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(openExternal).toHaveBeenCalledTimes(1);
    expect(fire('will-navigate', 'app://bundle/auth')).toBe(false);
    expect(fire('will-redirect', 'https://elsewhere.example/')).toBe(true);
    expect(fire('will-attach-webview')).toBe(true);
  });

  it('denies every new window, opening http(s) links externally', () => {
    const openExternal = vi.fn();
    const { contents, openWindow } = fakeContents();
    hardenWebContents(contents, { isAppUrl, openExternal });
    expect(openWindow('https://docs.example/')).toEqual({ action: 'deny' });
    expect(openWindow('app://bundle/admin')).toEqual({ action: 'deny' });
    expect(openWindow('smb://share/file')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://docs.example/']]);
  });
});

describe('content security policy', () => {
  it('allows only our own scripts in production and no network outside the app', () => {
    const csp = contentSecurityPolicy({ apiOrigin: 'https://api.example', devServerOrigin: null });
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('lets images come only from the app, data:, blob: and the API origin, so injected markup cannot beacon out', () => {
    const directive = (csp: string, name: string) => csp.split('; ').find((entry) => entry.startsWith(`${name} `));
    expect(directive(contentSecurityPolicy({ apiOrigin: 'https://api.example', devServerOrigin: null }), 'img-src')).toBe(
      "img-src 'self' data: blob: https://api.example",
    );
    expect(directive(contentSecurityPolicy({ apiOrigin: null, devServerOrigin: null }), 'img-src')).toBe("img-src 'self' data: blob:");
  });

  it('plays media from https only (a video policy of the sign-up page)', () => {
    expect(contentSecurityPolicy({ apiOrigin: null, devServerOrigin: null })).toContain("media-src 'self' https:;");
  });

  it('relaxes scripts and websockets only for the development server', () => {
    const csp = contentSecurityPolicy({ apiOrigin: null, devServerOrigin: 'http://localhost:5173' });
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self' ws://localhost:5173");
  });
});

describe('web preferences', () => {
  it.each([false, true])('switch off experimental and Blink features (development: %s)', (isDev) => {
    const preferences: Record<string, unknown> = secureWebPreferences('/app/preload.cjs', isDev);
    expect(preferences.experimentalFeatures).toBe(false);
    expect(preferences).not.toHaveProperty('enableBlinkFeatures');
    expect(preferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, devTools: isDev });
  });
});

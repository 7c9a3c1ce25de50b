import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

/**
 * The packaged renderer is served from `app://bundle/` instead of file://: a real origin the IPC
 * sender check can compare, a CSP header on every document, and path routes (/admin, /auth…) that
 * work like on the web because unknown paths fall back to index.html.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'bundle';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** For protocol.registerSchemesAsPrivileged, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } } as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export function createAppProtocolHandler(options: { rendererDir: string; contentSecurityPolicy: () => string }) {
  const root = resolve(options.rendererDir);
  const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return notFound();
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return notFound();
    }
    const isRoute = extname(pathname) === '';
    const file = isRoute ? resolve(root, 'index.html') : resolve(root, `.${pathname}`);
    if (!file.startsWith(`${root}${sep}`)) return notFound();
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      return notFound();
    }
    return new Response(new Uint8Array(content), {
      headers: {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': options.contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
      },
    });
  };
}

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, apiErrorFromResponse } from '../../shared/api/apiError';
import { buildPath } from '../../shared/api/endpoint';
import { ssoAuthorize } from '../../shared/api/sso';
import { SSO_DESKTOP_CALLBACK_PATH } from '../../shared/domain/sso';

/** How long the system browser may take before the flow gives up. */
export const SSO_BROWSER_TIMEOUT_MS = 5 * 60_000;

export interface SsoCallback {
  code: string;
  state: string;
  iss?: string;
  code_verifier: string;
  redirect_url: string;
}

export interface SsoBrowserFlowOptions {
  /** A public API call of the current server and tenant (no token). */
  post(endpoint: typeof ssoAuthorize, path: string, body: unknown): Promise<Response>;
  /** Opens the provider's page in the system browser. */
  openExternal(url: string): Promise<void>;
  timeoutMs?: number;
}

/** The page the browser shows once the app has the code: the user goes back to the app. */
const DONE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Signed in</title></head>
<body style="font-family:system-ui;text-align:center;padding-top:20vh"><p>You can close this tab and return to the app.</p>
<p lang="ko">이 탭을 닫고 앱으로 돌아가세요.</p></body></html>`;

/**
 * OpenID Connect for the desktop app (RFC 8252): the provider's page opens in the system browser,
 * never in an app window, and redirects to a one-shot listener on 127.0.0.1 (any port). Main keeps
 * the PKCE verifier and checks the state; only the code and verifier go back to the renderer, which
 * has the server exchange them (the result is an identity, not a session: main signs in with it).
 */
export function createSsoBrowserFlow(options: SsoBrowserFlowOptions) {
  let running: { cancel(): void } | null = null;

  async function authorize(platformId: number): Promise<SsoCallback> {
    running?.cancel();
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(24).toString('base64url');
    const server: Server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${SSO_DESKTOP_CALLBACK_PATH}`;
    try {
      const callback = new Promise<SsoCallback>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new ApiError(408, { code: 'sso_rejected', message: 'The SSO sign-in took too long.' })),
          options.timeoutMs ?? SSO_BROWSER_TIMEOUT_MS,
        );
        running = {
          cancel() {
            clearTimeout(timer);
            reject(new ApiError(0, { code: 'sso_rejected', message: 'The SSO sign-in was cancelled.' }));
          },
        };
        server.on('request', (request, response) => {
          const url = new URL(request.url ?? '/', redirectUrl);
          if (url.pathname !== SSO_DESKTOP_CALLBACK_PATH) {
            response.writeHead(404).end();
            return;
          }
          const code = url.searchParams.get('code');
          // Another page's redirect (a forged or stale one) cannot complete this sign-in.
          if (url.searchParams.get('state') !== state || !code) {
            response.writeHead(400, { 'content-type': 'text/plain' }).end('This sign-in link is not valid.');
            if (url.searchParams.get('state') === state) {
              clearTimeout(timer);
              reject(new ApiError(401, { code: 'sso_rejected', message: url.searchParams.get('error_description') ?? 'The SSO sign-in was refused.' }));
            }
            return;
          }
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(DONE_PAGE);
          clearTimeout(timer);
          const iss = url.searchParams.get('iss');
          resolve({ code, state, code_verifier: verifier, redirect_url: redirectUrl, ...(iss ? { iss } : {}) });
        });
      });
      // A cancel or time-out before the browser step is awaited must not count as unhandled.
      callback.catch(() => undefined);
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const response = await options.post(ssoAuthorize, buildPath(ssoAuthorize.path, { id: platformId }), {
        redirect_url: redirectUrl,
        code_challenge: challenge,
        state,
      });
      if (!response.ok) throw await apiErrorFromResponse(response);
      const { authorization_url: authorizationUrl } = ssoAuthorize.response.parse(await response.json());
      await options.openExternal(authorizationUrl);
      return await callback;
    } finally {
      running = null;
      server.close();
      server.closeAllConnections();
    }
  }

  return { authorize };
}

export type SsoBrowserFlow = ReturnType<typeof createSsoBrowserFlow>;

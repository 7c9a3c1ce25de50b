import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The web client's Content-Security-Policy, as strict as the desktop one (src/main/windows/security.ts)
 * minus what only the desktop needs: the built client has no inline script, loads everything from
 * its own origin and talks only to its own API. Styles allow inline because Mantine injects style tags.
 * Images are the app's own plus data:/blob: (no https wildcard: the server serves the images it shows).
 * Media may come from any https origin: a video policy is an https URL the tenant's admin chose, played
 * on the sign-up page (docs/decisions/0045-tenant-settings.md); nothing else plays media.
 */
const WEB_CSP_DIRECTIVES: Record<string, readonly string[]> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'media-src': ["'self'", 'https:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Origins a configured card provider adds (src/server/payments `paymentCspSources`); null keeps the CSP above as it is. */
export interface ExtraCspSources {
  scriptSrc: string[];
  frameSrc: string[];
}

/** The directives above, with the card provider's script and frame origins when it has any. */
function webCspDirectives(extra: ExtraCspSources | null): Record<string, readonly string[]> {
  if (!extra) return WEB_CSP_DIRECTIVES;
  return {
    ...WEB_CSP_DIRECTIVES,
    'script-src': [...WEB_CSP_DIRECTIVES['script-src']!, ...extra.scriptSrc],
    // Replaces 'none': a source list with 'none' in it is not valid.
    'frame-src': extra.frameSrc,
  };
}

/** One year, subdomains included (tenants may get their own subdomains); no preload list entry. */
const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every response (pages, static files, API JSON, errors) through @fastify/helmet:
 * the CSP above, X-Frame-Options DENY, nosniff, Referrer-Policy no-referrer, same-origin opener and
 * resource policies. HSTS only when the request reached us over HTTPS: a TLS socket, or
 * `X-Forwarded-Proto: https` from a trusted proxy (TRUST_PROXY), or always when the operator declared
 * HTTPS with COOKIE_SECURE (browsers ignore HSTS received over plain http, so that is harmless there).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { servedOverHttps: boolean; extraCspSources: ExtraCspSources | null },
): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: webCspDirectives(options.extraCspSources) },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false,
  });
  const isHttps = (request: FastifyRequest) => options.servedOverHttps || request.protocol === 'https';
  app.addHook('onRequest', async (request, reply) => {
    // On the raw response like helmet's headers, so the hijacked chat stream carries it too.
    if (isHttps(request)) reply.raw.setHeader('strict-transport-security', HSTS_VALUE);
  });
}

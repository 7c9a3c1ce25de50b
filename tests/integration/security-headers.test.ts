import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { type ServerConfig, testConfig } from '../../src/server/config';
import { type DatabaseHandle, openPglite } from '../../src/server/db/client';
import { DEMO_MEMBER, seedDemoTenant } from '../../src/server/db/seed';
import { migratedPglite } from '../fixtures/testServer';

/** The web client's CSP, directive by directive (the desktop one minus its dev and API-origin needs). */
const EXPECTED_CSP: Record<string, string[]> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  // Video policies of the sign-up page (docs/decisions/0045-tenant-settings.md).
  'media-src': ["'self'", 'https:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const HSTS = 'max-age=31536000; includeSubDomains';

function parseCsp(header: string | undefined): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

let handle: DatabaseHandle;
let webRoot: string;
const apps: FastifyInstance[] = [];

async function app(config: Partial<ServerConfig> = {}): Promise<FastifyInstance> {
  const built = await buildApp({ db: handle.db, config: testConfig({ DEMO_TOKEN_DELAY_MS: 0, ...config }), webRoot });
  apps.push(built);
  return built;
}

beforeAll(async () => {
  handle = await openPglite(undefined, undefined, await migratedPglite());
  await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'Demo' });
  webRoot = mkdtempSync(join(tmpdir(), 'web-root-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(webRoot, 'assets', 'app.js'), 'console.log("app")');
});
afterAll(async () => {
  await Promise.all(apps.map((built) => built.close()));
  await handle?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('security headers', () => {
  it.each([
    ['the web client page', '/', 'text/html'],
    ['a client route answered with index.html', '/dashboard/chat/1', 'text/html'],
    ['a static asset', '/assets/app.js', 'application/javascript'],
    ['an API JSON response', '/api/v1/tenants/', 'application/json'],
    ['an API error', '/api/v1/no-such-endpoint/', 'application/json'],
  ])('%s carries the CSP and the anti-framing, nosniff and referrer headers', async (_, url, type) => {
    const response = await (await app()).inject({ url });
    expect(response.headers['content-type']).toContain(type);
    expect(parseCsp(response.headers['content-security-policy'] as string)).toEqual(EXPECTED_CSP);
    expect(response.headers).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
  });

  it('the chat stream, written by hand, carries them too', async () => {
    const server = await app();
    const signIn = await server.inject({ method: 'POST', url: '/api/v1/auth/sign-in/', payload: DEMO_MEMBER });
    const token = signIn.json().access_token as string;
    const chatbots = await server.inject({ url: '/api/v1/chatbots/?include_default=true', headers: { 'x-access-token': token } });
    const chat = await server.inject({
      method: 'POST',
      url: `/api/v1/chatbots/${chatbots.json().items[0].id}/chat/`,
      headers: { 'x-access-token': token },
      payload: { text: 'hello' },
    });
    expect(chat.statusCode).toBe(200);
    expect(chat.headers['content-type']).toContain('text/event-stream');
    expect(chat.headers['x-content-type-options']).toBe('nosniff');
    expect(chat.headers['content-security-policy']).toBeDefined();
  });

  it('with PortOne configured, script-src adds only the SDK’s origin and frame-src PortOne’s hosts; the rest stays as strict', async () => {
    const portone = { PORTONE_API_SECRET: 'secret', PORTONE_STORE_ID: 'store-1', PORTONE_CHANNEL_KEY: 'channel-1' };
    const byDefault = parseCsp((await (await app(portone)).inject({ url: '/' })).headers['content-security-policy'] as string);
    expect(byDefault).toEqual({
      ...EXPECTED_CSP,
      'script-src': ["'self'", 'https://cdn.portone.io'],
      'frame-src': ['https://cdn.portone.io', 'https://*.portone.io', 'https://*.iamport.co', 'https://*.iamport.kr'],
    });
    const configured = await app({ ...portone, PORTONE_SDK_URL: 'http://127.0.0.1:4999/v2/browser-sdk.js', PORTONE_FRAME_SOURCES: ['https://*.inicis.com'] });
    for (const url of ['/dashboard/plans', '/api/v1/tenants/']) {
      const csp = parseCsp((await configured.inject({ url })).headers['content-security-policy'] as string);
      expect(csp).toEqual({
        ...EXPECTED_CSP,
        'script-src': ["'self'", 'http://127.0.0.1:4999'],
        'frame-src': ['http://127.0.0.1:4999', 'https://*.inicis.com'],
      });
    }
  });

  it('the server’s own images may be shown from another origin (the desktop renderer)', async () => {
    const response = await (await app()).inject({ url: '/api/v1/assets/demo-logo.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('HSTS', () => {
  it('is not sent over plain http', async () => {
    const response = await (await app()).inject({ url: '/' });
    expect(response.headers).not.toHaveProperty('strict-transport-security');
  });

  it('is not sent for an X-Forwarded-Proto the server does not trust', async () => {
    const response = await (await app({ TRUST_PROXY: false })).inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers).not.toHaveProperty('strict-transport-security');
  });

  it('is sent when a trusted proxy says the request came over https, on pages and API', async () => {
    const server = await app({ TRUST_PROXY: true });
    for (const url of ['/', '/api/v1/tenants/']) {
      const response = await server.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers['strict-transport-security']).toBe(HSTS);
    }
    const plain = await server.inject({ url: '/', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers).not.toHaveProperty('strict-transport-security');
  });

  it('is always sent when the operator declared HTTPS with COOKIE_SECURE', async () => {
    const response = await (await app({ COOKIE_SECURE: true })).inject({ url: '/api/v1/tenants/' });
    expect(response.headers['strict-transport-security']).toBe(HSTS);
  });
});

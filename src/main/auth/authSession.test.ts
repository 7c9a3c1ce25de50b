import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenVault } from '../keychain/tokenVault';
import { createAuthSession } from './authSession';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback HTTP server answering every request with `respond`; records what it received. */
async function listen(respond: (url: string) => { status: number; headers?: Record<string, string> }) {
  const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    const { status, headers } = respond(request.url ?? '');
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('auth session and redirects', () => {
  it('never follows a redirect with the access token: the token stays with the API server', async () => {
    const elsewhere = await listen(() => ({ status: 200 }));
    const api = await listen((url) => (url.startsWith('/api/v1/auth/') ? { status: 200 } : { status: 307, headers: { location: `${elsewhere.origin}/collect` } }));
    const apiBase = `${api.origin}/api/v1`;
    const vault = createTokenVault({ get: async () => null, set: async () => undefined, delete: async () => undefined }, () => undefined);
    await vault.save('service', { accessToken: 'ACCESS-SECRET', refreshToken: 'REFRESH-SECRET' });
    const session = createAuthSession({ fetch, settings: () => ({ apiBase, subdomain: null }), vault, serviceName: () => 'service', onEnded: () => undefined });

    await expect(session.authorizedFetch(`${apiBase}/files/1/download/`, { method: 'GET', headers: new Headers(), body: null })).rejects.toThrow();
    expect(api.received.map((request) => request.headers['x-access-token'])).toEqual(['ACCESS-SECRET']);
    expect(elsewhere.received).toEqual([]);
  });
});

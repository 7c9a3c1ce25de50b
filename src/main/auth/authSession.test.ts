import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenVault } from '../keychain/tokenVault';
import { createAuthSession } from './authSession';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

type Answer = { status: number; headers?: Record<string, string> };

/** A loopback HTTP server answering every request with `respond`; records what it received. */
async function listen(respond: (url: string) => Answer | Promise<Answer>) {
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      void Promise.resolve(respond(request.url ?? '')).then(({ status, headers }) =>
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{}'),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('auth session and redirects', () => {
  it('never follows a redirect with the access token: the token stays with the API server', async () => {
    const elsewhere = await listen(() => ({ status: 200 }));
    const api = await listen((url) =>
      url.startsWith('/api/v1/auth/') ? { status: 200 } : { status: 307, headers: { location: `${elsewhere.origin}/collect` } },
    );
    const apiBase = `${api.origin}/api/v1`;
    const vault = createTokenVault({ get: async () => null, set: async () => undefined, delete: async () => undefined }, () => undefined);
    await vault.save('service', { accessToken: 'ACCESS-SECRET', refreshToken: 'REFRESH-SECRET' });
    const session = createAuthSession({ fetch, settings: () => ({ apiBase, subdomain: null }), vault, serviceName: () => 'service', onEnded: () => undefined });

    await expect(session.authorizedFetch(`${apiBase}/files/1/download/`, { method: 'GET', headers: new Headers(), body: null })).rejects.toThrow();
    expect(api.received.map((request) => request.headers['x-access-token'])).toEqual(['ACCESS-SECRET']);
    expect(elsewhere.received).toEqual([]);
  });
});

describe('auth session and a change of server', () => {
  const noKeychain = { get: async () => null, set: async () => undefined, delete: async () => undefined };

  it('a call refused while the server changes renews its own session, never borrowing the other server’s token', async () => {
    let answerFirstCall = () => undefined as void;
    const firstCallAnswered = new Promise<void>((resolve) => (answerFirstCall = resolve));
    const first = await listen(async (url) => {
      if (url.endsWith('/files/')) await firstCallAnswered;
      return { status: 401 };
    });
    const second = await listen(() => ({ status: 200 }));
    const bases = { first: `${first.origin}/api/v1`, second: `${second.origin}/api/v1` };
    const vault = createTokenVault(noKeychain, () => undefined);
    await vault.save('first', { accessToken: 'ACCESS-FIRST', refreshToken: 'REFRESH-FIRST' });
    await vault.save('second', { accessToken: 'ACCESS-SECOND', refreshToken: 'REFRESH-SECOND' });
    let settings = { apiBase: bases.first, subdomain: null };
    const session = createAuthSession({
      fetch,
      settings: () => settings,
      vault,
      serviceName: ({ apiBase }) => (apiBase === bases.first ? 'first' : 'second'),
      onEnded: () => undefined,
    });

    const call = session.authorizedFetch(`${bases.first}/files/`, { method: 'GET', headers: new Headers(), body: null });
    await vi.waitFor(() => expect(first.received).toHaveLength(1));
    settings = { apiBase: bases.second, subdomain: null };
    answerFirstCall();

    expect((await call).status).toBe(401);
    expect(first.received.map(({ url }) => url)).toEqual(['/api/v1/files/', '/api/v1/auth/refresh/']);
    expect(JSON.parse(first.received[1]!.body)).toEqual({ refresh_token: 'REFRESH-FIRST' });
    expect(JSON.stringify(first.received)).not.toMatch(/SECOND/);
    expect(second.received).toEqual([]);
  });

  it('attaches no token to a URL outside the API base of the session', async () => {
    const api = await listen(() => ({ status: 200 }));
    const elsewhere = await listen(() => ({ status: 200 }));
    const vault = createTokenVault(noKeychain, () => undefined);
    await vault.save('service', { accessToken: 'ACCESS-SECRET', refreshToken: 'REFRESH-SECRET' });
    const session = createAuthSession({
      fetch,
      settings: () => ({ apiBase: `${api.origin}/api/v1`, subdomain: null }),
      vault,
      serviceName: () => 'service',
      onEnded: () => undefined,
    });

    await expect(session.authorizedFetch(`${elsewhere.origin}/api/v1/chatbots/`, { method: 'GET', headers: new Headers(), body: null })).rejects.toMatchObject({
      status: 403,
    });
    await expect(session.authorizedFetch(`${api.origin}/other/`, { method: 'GET', headers: new Headers(), body: null })).rejects.toMatchObject({ status: 403 });
    expect([api.received, elsewhere.received]).toEqual([[], []]);
  });
});

import { describe, expect, it } from 'vitest';
import { createAuthSession } from '../auth/authSession';
import { keychainServiceName, type SecretStore } from './secretStore';
import { createTokenVault } from './tokenVault';

const APP = 'app.test';

describe('keychain service names', () => {
  it('key a session by origin: scheme, host and port, plus the tenant', () => {
    const https = keychainServiceName(APP, 'https://chat.example/api/v1', 'acme');
    expect(https).toBe('app.test/https://chat.example/acme');
    expect(keychainServiceName(APP, 'https://chat.example:443/other/base/', 'acme')).toBe(https);
    expect(keychainServiceName(APP, 'http://chat.example/api/v1', 'acme')).not.toBe(https);
    expect(keychainServiceName(APP, 'https://chat.example:8443/api/v1', 'acme')).not.toBe(https);
    expect(keychainServiceName(APP, 'https://chat.example/api/v1', null)).toBe('app.test/https://chat.example/default');
  });

  it('a session stored for https is never sent when the server becomes http on the same host', async () => {
    const entries = new Map<string, string>();
    const store: SecretStore = {
      get: async (service, account) => entries.get(`${service}|${account}`) ?? null,
      set: async (service, account, secret) => void entries.set(`${service}|${account}`, secret),
      delete: async (service, account) => void entries.delete(`${service}|${account}`),
    };
    const vault = createTokenVault(store, () => undefined);
    let settings = { apiBase: 'https://chat.example/api/v1', subdomain: null };
    const sent: Array<{ url: string; headers: Headers; body: string }> = [];
    const session = createAuthSession({
      fetch: async (url, init) => {
        sent.push({ url, headers: new Headers(init.headers), body: String(init.body ?? '') });
        return Response.json({ code: 'unauthorized', message: 'No session' }, { status: 401 });
      },
      settings: () => settings,
      vault,
      serviceName: ({ apiBase, subdomain }) => keychainServiceName(APP, apiBase, subdomain),
      onEnded: () => undefined,
    });
    await vault.save(keychainServiceName(APP, settings.apiBase, null), { accessToken: 'ACCESS-SECRET', refreshToken: 'REFRESH-SECRET' });

    settings = { apiBase: 'http://chat.example/api/v1', subdomain: null };
    expect(await session.restore()).toBeNull();
    await session.authorizedFetch('http://chat.example/api/v1/chatbots/', { method: 'GET', headers: new Headers(), body: null });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('x-access-token')).toBeNull();
    expect(JSON.stringify(sent)).not.toMatch(/SECRET/);
  });
});

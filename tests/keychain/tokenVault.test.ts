import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthSession } from '../../src/main/auth/authSession';
import { createKeytarSecretStore, keychainServiceName } from '../../src/main/keychain/secretStore';
import { createTokenVault } from '../../src/main/keychain/tokenVault';

/**
 * Against the REAL keychain: on Linux inside dbus-run-session with gnome-keyring unlocked, on
 * macOS and Windows the user's own (`npm test` does either). The last test runs a child without a
 * session bus.
 */
const APP = 'test.chatbot-platform.keychain';
const services = new Set<string>();
const serviceFor = (tenant: string) => {
  const service = keychainServiceName(APP, 'http://127.0.0.1:3000/api/v1', `${tenant}-${process.pid}`);
  services.add(service);
  return service;
};

afterEach(async () => {
  for (const service of services) for (const account of ['access-token', 'refresh-token']) await keytar.deletePassword(service, account);
});

describe('token vault on the OS keychain', () => {
  it('stores both tokens in the keychain and a new app run finds them', async () => {
    const service = serviceFor('acme');
    const onUnavailable = vi.fn();
    await createTokenVault(createKeytarSecretStore(keytar), onUnavailable).save(service, { accessToken: 'A1', refreshToken: 'R1' });
    expect(await keytar.getPassword(service, 'refresh-token')).toBe('R1');
    expect(await keytar.getPassword(service, 'access-token')).toBe('A1');

    const nextRun = createTokenVault(createKeytarSecretStore(keytar), onUnavailable);
    expect(await nextRun.load(service)).toEqual({ accessToken: 'A1', refreshToken: 'R1' });
    expect(nextRun.storage()).toBe('keychain');
    expect(onUnavailable).not.toHaveBeenCalled();
  });

  it('keeps tenants apart: one service per app, server and tenant', async () => {
    const vault = createTokenVault(createKeytarSecretStore(keytar), vi.fn());
    await vault.save(serviceFor('acme'), { accessToken: 'A-acme', refreshToken: 'R-acme' });
    await vault.save(serviceFor('globex'), { accessToken: 'A-globex', refreshToken: 'R-globex' });
    expect(await keytar.getPassword(serviceFor('acme'), 'refresh-token')).toBe('R-acme');
    expect(await keytar.getPassword(serviceFor('globex'), 'refresh-token')).toBe('R-globex');
  });

  it('keeps a session of an https server away from the same host over http or on another port', async () => {
    const vault = createTokenVault(createKeytarSecretStore(keytar), vi.fn());
    const named = (apiBase: string) => {
      const service = keychainServiceName(APP, apiBase, `origin-${process.pid}`);
      services.add(service);
      return service;
    };
    await vault.save(named('https://127.0.0.1/api/v1'), { accessToken: 'A-https', refreshToken: 'R-https' });
    const nextRun = createTokenVault(createKeytarSecretStore(keytar), vi.fn());
    expect(await nextRun.load(named('https://127.0.0.1:443/api/v1'))).toEqual({ accessToken: 'A-https', refreshToken: 'R-https' });
    expect(await nextRun.load(named('http://127.0.0.1/api/v1'))).toBeNull();
    expect(await nextRun.load(named('https://127.0.0.1:8443/api/v1'))).toBeNull();
  });

  it('deletes the tokens from the keychain on sign-out', async () => {
    const service = serviceFor('signout');
    const vault = createTokenVault(createKeytarSecretStore(keytar), vi.fn());
    await vault.save(service, { accessToken: 'A', refreshToken: 'R' });
    const session = createAuthSession({
      fetch: async () => Response.json({ ok: true }),
      settings: () => ({ apiBase: 'http://127.0.0.1:3000/api/v1', subdomain: `signout-${process.pid}` }),
      vault,
      serviceName: () => service,
      onEnded: vi.fn(),
    });
    await session.signOut();
    expect(await keytar.getPassword(service, 'refresh-token')).toBeNull();
    expect(await keytar.getPassword(service, 'access-token')).toBeNull();
  });

  it.each([
    [401, 'auth_refresh_401'],
    [403, 'auth_refresh_403'],
  ])('deletes the tokens when a refresh is answered %i and tells the renderer', async (status, reason) => {
    const service = serviceFor(`refresh-${status}`);
    const vault = createTokenVault(createKeytarSecretStore(keytar), vi.fn());
    await vault.save(service, { accessToken: 'expired', refreshToken: 'revoked' });
    const onEnded = vi.fn();
    const session = createAuthSession({
      fetch: async (url) =>
        String(url).endsWith('/auth/refresh/')
          ? Response.json({ code: 'session_expired', message: 'Expired' }, { status })
          : Response.json({ code: 'unauthorized', message: 'Expired token' }, { status: 401 }),
      settings: () => ({ apiBase: 'http://127.0.0.1:3000/api/v1', subdomain: null }),
      vault,
      serviceName: () => service,
      onEnded,
    });
    const response = await session.authorizedFetch('http://127.0.0.1:3000/api/v1/chatbots/', { method: 'GET', headers: new Headers(), body: null });
    expect(response.status).toBe(401);
    expect(onEnded).toHaveBeenCalledWith(reason);
    expect(await keytar.getPassword(service, 'refresh-token')).toBeNull();
    expect(await createTokenVault(createKeytarSecretStore(keytar), vi.fn()).load(service)).toBeNull();
  });
});

// A Linux process without a session bus has no Secret Service; macOS and Windows always have a keychain.
describe.runIf(process.platform === 'linux')('without a keychain', () => {
  async function filesContaining(dir: string, needle: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    const hits: string[] = [];
    for (const entry of entries.filter((e) => e.isFile())) {
      const path = join(entry.parentPath, entry.name);
      if ((await readFile(path)).includes(needle)) hits.push(path);
    }
    return hits;
  }

  it('says so once, keeps the session in memory and writes no token anywhere', async () => {
    const home = await mkdtemp(join(tmpdir(), 'no-keychain-home-'));
    const access = `access-${crypto.randomUUID()}`;
    const refresh = `refresh-${crypto.randomUUID()}`;
    const root = resolve(import.meta.dirname, '../..');
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'noKeychainProbe.ts'), 'probe-service', access, refresh],
      { cwd: root, env },
    );
    const result = JSON.parse(stdout) as { storage: string; loaded: unknown; unavailableNotices: number };
    expect(result.storage).toBe('memory');
    expect(result.unavailableNotices).toBe(1);
    expect(result.loaded).toEqual({ accessToken: access, refreshToken: refresh });
    expect(await filesContaining(home, refresh)).toEqual([]);
    expect(await filesContaining(home, access)).toEqual([]);
  });
});

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiBaseProblem, desktopSettingsPatchSchema } from '../../shared/ipc/contract';
import { createSettingsStore } from './settingsStore';

async function settingsPath() {
  return join(await mkdtemp(join(tmpdir(), 'settings-')), 'settings.json');
}

describe('desktop settings', () => {
  it('starts unconfigured on the default server and remembers the chosen server and workspace', async () => {
    const path = await settingsPath();
    const first = await createSettingsStore(path, 'http://localhost:3000/api/v1/');
    expect(first.get()).toEqual({ apiBase: 'http://localhost:3000/api/v1', subdomain: null, configured: false });
    await first.update(desktopSettingsPatchSchema.parse({ apiBase: 'https://chat.example/api/v1/', subdomain: 'Acme' }));
    const second = await createSettingsStore(path, 'http://localhost:3000/api/v1');
    expect(second.get()).toEqual({ apiBase: 'https://chat.example/api/v1', subdomain: 'acme', configured: true });
  });

  it('falls back to defaults when the file was edited into something invalid', async () => {
    const path = await settingsPath();
    await writeFile(path, JSON.stringify({ apiBase: 'javascript:alert(1)', subdomain: null, configured: true }));
    const store = await createSettingsStore(path, 'http://localhost:3000/api/v1');
    expect(store.get().apiBase).toBe('http://localhost:3000/api/v1');
    await store.update({ subdomain: 'demo' });
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ apiBase: 'http://localhost:3000/api/v1', subdomain: 'demo' });
  });

  it('never keeps an http server outside this computer: a stored one sends the user back to setup', async () => {
    const path = await settingsPath();
    await writeFile(path, JSON.stringify({ apiBase: 'http://chat.example/api/v1', subdomain: 'acme', configured: true }));
    const store = await createSettingsStore(path, 'http://127.0.0.1:3000/api/v1');
    expect(store.get()).toEqual({ apiBase: 'http://127.0.0.1:3000/api/v1', subdomain: null, configured: false });
    await expect(createSettingsStore(path, 'http://chat.example/api/v1')).rejects.toThrow(/https is required/);
  });
});

describe('API base rule', () => {
  it.each([
    ['https://chat.example/api/v1', true],
    ['https://chat.example:8443/api/v1/', true],
    ['http://localhost:3000/api/v1', true],
    ['http://127.0.0.1:3000/api/v1', true],
    ['http://127.8.9.10/api/v1', true],
    ['http://[::1]:3000/api/v1', true],
    ['http://chat.example/api/v1', false],
    ['http://192.168.1.20:3000/api/v1', false],
    ['http://localhost.evil.example/api/v1', false],
    ['http://127.0.0.1.nip.io/api/v1', false],
    ['http://[::ffff:7f00:1]/api/v1', false],
    ['ftp://chat.example/api/v1', false],
  ])('%s → accepted %s', (apiBase, accepted) => {
    expect(desktopSettingsPatchSchema.safeParse({ apiBase }).success).toBe(accepted);
  });

  it('says why an http address for another machine is refused', () => {
    expect(apiBaseProblem('http://chat.example/api/v1')).toBe('insecure');
    expect(apiBaseProblem('https://user:pw@chat.example/api/v1')).toBe('invalid');
    expect(apiBaseProblem('http://localhost/api/v1')).toBeNull();
  });
});

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { desktopSettingsPatchSchema } from '../../shared/ipc/contract';
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
});

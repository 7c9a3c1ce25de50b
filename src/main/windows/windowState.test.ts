import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWindowStateStore } from './windowState';

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

async function statePath() {
  return join(await mkdtemp(join(tmpdir(), 'window-state-')), 'window-state.json');
}

describe('window state', () => {
  it('restores each window where it was closed, across restarts', async () => {
    const path = await statePath();
    const first = await createWindowStateStore(path);
    await first.remember('main', { x: 100, y: 80, width: 1000, height: 700 }, false);
    await first.remember('admin', { x: 300, y: 200, width: 1200, height: 800 }, true);
    const second = await createWindowStateStore(path);
    expect(second.restore('main', screen)).toEqual({ bounds: { x: 100, y: 80, width: 1000, height: 700 }, maximized: false });
    expect(second.restore('admin', screen)).toEqual({ bounds: { x: 300, y: 200, width: 1200, height: 800 }, maximized: true });
  });

  it('remembers both windows when they close at once, as the app quits', async () => {
    const path = await statePath();
    const store = await createWindowStateStore(path);
    await Promise.all([
      store.remember('main', { x: 100, y: 80, width: 1000, height: 700 }, false),
      store.remember('admin', { x: 300, y: 200, width: 1200, height: 800 }, false),
    ]);
    const restarted = await createWindowStateStore(path);
    expect(restarted.restore('main', screen)?.bounds).toMatchObject({ width: 1000 });
    expect(restarted.restore('admin', screen)?.bounds).toMatchObject({ width: 1200 });
  });

  it('keeps the size but drops a position that is on no screen any more', async () => {
    const store = await createWindowStateStore(await statePath());
    await store.remember('main', { x: 2500, y: 100, width: 1000, height: 700 }, false);
    expect(store.restore('main', screen)).toEqual({ bounds: { width: 1000, height: 700 }, maximized: false });
  });

  it('ignores a corrupt or tampered file and never stores a window too small to use', async () => {
    const path = await statePath();
    await writeFile(path, JSON.stringify({ main: { x: 0, y: 0, width: 5, height: 5, maximized: false } }));
    const store = await createWindowStateStore(path);
    expect(store.restore('main', screen)).toBeNull();
    await store.remember('main', { x: 0, y: 0, width: 10, height: 10 }, false);
    expect(JSON.parse(await readFile(path, 'utf8'))).not.toHaveProperty('main.width', 10);
    await writeFile(path, '{not json');
    expect((await createWindowStateStore(path)).restore('main', screen)).toBeNull();
  });
});

import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from './appProtocol';

let handle: (request: Request) => Promise<Response>;
let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), 'renderer-'));
  const rendererDir = join(parent, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(rendererDir, 'assets', 'index.js'), 'console.log(1)');
  await writeFile(join(parent, 'secret.txt'), 'outside the bundle');
  handle = createAppProtocolHandler({ rendererDir, contentSecurityPolicy: () => "default-src 'none'" });
});

describe('app:// protocol', () => {
  it('serves routes as the single-page index with the CSP header', async () => {
    for (const path of ['/', '/admin', '/chat/12']) {
      const response = await handle(new Request(`app://bundle${path}`));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('id="root"');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(response.headers.get('content-type')).toContain('text/html');
    }
  });

  it('serves assets with their type', async () => {
    const response = await handle(new Request('app://bundle/assets/index.js'));
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect(await response.text()).toBe('console.log(1)');
  });

  it('never serves a file outside the renderer folder or from another host', async () => {
    for (const url of [
      'app://bundle/../secret.txt',
      'app://bundle/%2e%2e/secret.txt',
      'app://bundle/assets/..%2f..%2fsecret.txt',
      'app://other/index.html',
      'app://bundle/missing.js',
    ]) {
      const response = await handle(new Request(url));
      expect(response.status, url).toBe(404);
    }
  });
});

// Shared by the browser benches: builds a bench page with Vite into a temporary directory, serves
// it on a free local port and launches Chromium.
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import { systemChromium } from './optionalServices.mjs';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Builds `tests/bench/<name>` and serves it; returns its base URL, the browser and a cleanup. */
export async function openBench(name) {
  const outDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  await build({ configFile: join(repoRoot, `tests/bench/${name}/vite.config.ts`), build: { outDir, emptyOutDir: true } });
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://bench').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(outDir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(outDir) || !existsSync(file)) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || systemChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    browser,
    async close() {
      await browser.close();
      server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Main-thread counters of Chromium (seconds), read through the DevTools protocol. */
export async function performanceMetrics(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value]));
  };
}

#!/usr/bin/env node
// `npm run bench:stream`: a long markdown answer streamed at 50, 150 and 500 chunks/s into the
// real chat message component (batching, markdown, highlighting) in Chromium. Prints main-thread
// busy share, display lag p50/p95 (chunk arrival → first frame showing it) and the longest task.
// Figures only; nothing here passes or fails. BENCH_CHUNKS sets the answer length (default 1500),
// BENCH_HISTORY the number of earlier messages above it (default 200, a long chat).
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const rates = [50, 150, 500];
const chunkCount = Number(process.env.BENCH_CHUNKS ?? 1500);
const historyCount = Number(process.env.BENCH_HISTORY ?? 200);
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

const outDir = mkdtempSync(join(tmpdir(), 'bench-stream-'));
await build({ configFile: join(root, 'tests/bench/stream/vite.config.ts'), build: { outDir, emptyOutDir: true } });

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://bench').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(outDir, path === '/' ? 'index.html' : path);
  if (!file.startsWith(outDir) || !existsSync(file)) return response.writeHead(404).end();
  response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/?history=${historyCount}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? systemChromium,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});

const metric = (metrics, name) => metrics.find((m) => m.name === name)?.value ?? 0;
const ms = (value) => (value === null ? 'none ≥50 ms' : `${value.toFixed(0)} ms`);

try {
  console.log(`Streaming ${chunkCount} chunks per run into the chat message list below ${historyCount} earlier messages (Chromium ${browser.version()})\n`);
  console.log('rate (chunks/s) | duration | main-thread busy | lag p50 | lag p95 | lag max | longest task');
  console.log('--------------- | -------- | ---------------- | ------- | ------- | ------- | ------------');
  for (const rate of rates) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.waitForFunction(() => 'runBench' in window);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const before = (await cdp.send('Performance.getMetrics')).metrics;
    const result = await page.evaluate(([r, n]) => window.runBench(r, n), [rate, chunkCount]);
    const after = (await cdp.send('Performance.getMetrics')).metrics;
    // TaskDuration is the renderer main thread's cumulative busy time, in seconds.
    const busy = (metric(after, 'TaskDuration') - metric(before, 'TaskDuration')) / (metric(after, 'Timestamp') - metric(before, 'Timestamp'));
    console.log(
      [
        String(rate).padEnd(15),
        `${(result.durationMs / 1000).toFixed(1)} s`.padEnd(8),
        `${(busy * 100).toFixed(1)} %`.padEnd(16),
        `${result.lagP50.toFixed(0)} ms`.padEnd(7),
        `${result.lagP95.toFixed(0)} ms`.padEnd(7),
        `${result.lagMax.toFixed(0)} ms`.padEnd(7),
        ms(result.longestTaskMs),
      ].join(' | '),
    );
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  rmSync(outDir, { recursive: true, force: true });
}

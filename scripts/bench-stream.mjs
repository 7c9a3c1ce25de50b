#!/usr/bin/env node
// `npm run bench:stream`: a long markdown answer streamed at 50, 150 and 500 chunks/s into the
// real chat message component (batching, markdown, highlighting) in Chromium. Prints main-thread
// busy share, display lag p50/p95 (chunk arrival → first frame showing it) and the longest task,
// for the app's batching (spec §9's counts with the catch-up) and for spec §9's counts alone.
// Figures only; nothing here passes or fails. BENCH_CHUNKS sets the answer length (default 1500),
// BENCH_HISTORY the number of earlier messages above it (default 200, a long chat).
import { openBench, performanceMetrics } from './bench-page.mjs';

const rates = [50, 150, 500];
const chunkCount = Number(process.env.BENCH_CHUNKS ?? 1500);
const historyCount = Number(process.env.BENCH_HISTORY ?? 200);

const bench = await openBench('stream');
const { browser } = bench;
const url = `${bench.url}?history=${historyCount}`;

const ms = (value) => (value === null ? 'none ≥50 ms' : `${value.toFixed(0)} ms`);

try {
  console.log(`Streaming ${chunkCount} chunks per run into the chat message list below ${historyCount} earlier messages (Chromium ${browser.version()})\n`);
  console.log('batching | rate (chunks/s) | duration | main-thread busy | lag p50 | lag p95 | lag max | longest task');
  console.log('-------- | --------------- | -------- | ---------------- | ------- | ------- | ------- | ------------');
  for (const [batching, rate] of rates.flatMap((r) => [
    ['app', r],
    ['spec', r],
  ])) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${url}&batching=${batching}`);
    await page.waitForFunction(() => 'runBench' in window);
    const metrics = await performanceMetrics(page);
    const before = await metrics();
    const result = await page.evaluate(([r, n]) => window.runBench(r, n), [rate, chunkCount]);
    const after = await metrics();
    // TaskDuration is the renderer main thread's cumulative busy time, in seconds.
    const busy = (after.TaskDuration - before.TaskDuration) / (after.Timestamp - before.Timestamp);
    console.log(
      [
        batching.padEnd(8),
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
  await bench.close();
}

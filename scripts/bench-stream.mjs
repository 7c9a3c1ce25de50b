#!/usr/bin/env node
// `npm run bench:stream`: a long markdown answer streamed at 50, 150 and 500 chunks/s in Chromium
// into the real chat message list (batching, markdown, highlighting, formulas, a diagram; below a
// long chat) and, fed the same chunks at the same rates on pages of their own, into two peers:
// Vercel's streamdown and react-markdown re-rendered per chunk (tests/bench/stream/peers.tsx), and a
// plain text node, the floor (what the harness and a growing text cost).
// Prints main-thread busy share, display lag p50/p95 (chunk arrival → first frame showing it) and
// the longest task, then each peer's busy share over ours. Figures only; nothing here passes or
// fails. BENCH_CHUNKS sets the answer length (default 1500), BENCH_HISTORY the number of earlier
// messages above the chat's answer (default 200), BENCH_RATES and BENCH_RENDERERS which runs to make.
import { openBench, performanceMetrics } from './bench-page.mjs';

const rates = (process.env.BENCH_RATES ?? '50,150,500').split(',').map(Number);
const renderers = (process.env.BENCH_RENDERERS ?? 'app,streamdown,react-markdown,plain').split(',');
const chunkCount = Number(process.env.BENCH_CHUNKS ?? 1500);
const historyCount = Number(process.env.BENCH_HISTORY ?? 200);

const bench = await openBench('stream');
const { browser } = bench;

const ms = (value) => (value === null ? 'none ≥50 ms' : `${value.toFixed(0)} ms`);
const busyOf = new Map();

try {
  console.log(`Streaming ${chunkCount} chunks per run; the chat's answer below ${historyCount} earlier messages (Chromium ${browser.version()})\n`);
  console.log('renderer       | rate (chunks/s) | duration | main-thread busy | lag p50 | lag p95 | lag max | longest task');
  console.log('-------------- | --------------- | -------- | ---------------- | ------- | ------- | ------- | ------------');
  for (const rate of rates) {
    for (const renderer of renderers) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${bench.url}?renderer=${renderer}&history=${historyCount}`);
      await page.waitForFunction(() => 'runBench' in window);
      const metrics = await performanceMetrics(page);
      const before = await metrics();
      const result = await page.evaluate(([r, n]) => window.runBench(r, n), [rate, chunkCount]);
      const after = await metrics();
      // TaskDuration is the renderer main thread's cumulative busy time, in seconds.
      const busy = (after.TaskDuration - before.TaskDuration) / (after.Timestamp - before.Timestamp);
      busyOf.set(`${renderer}@${rate}`, busy);
      console.log(
        [
          renderer.padEnd(14),
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
  }
  const peers = renderers.filter((renderer) => renderer !== 'app');
  if (renderers.includes('app') && peers.length > 0) {
    console.log(
      `\nmain-thread busy, peer ÷ app: ${rates.map((rate) => `${rate}/s ${peers.map((peer) => `${peer} ${(busyOf.get(`${peer}@${rate}`) / busyOf.get(`app@${rate}`)).toFixed(1)}×`).join(', ')}`).join('; ')}`,
    );
  }
} finally {
  await bench.close();
}

#!/usr/bin/env node
// `npm run bench:chat`: the real chat message list in Chromium with a long chat (BENCH_MESSAGES,
// default 1000). Opens it at the newest history page, scrolls to the top loading every older page
// (20 messages each) and prints open time, DOM size, the longest task and how far the message
// being read moved when a page arrived. Then streams one answer (BENCH_CHUNKS chunks at BENCH_RATE
// per second) into our list and into a naive renderer that re-parses the whole message with
// marked on every chunk, and prints main-thread time per chunk for both. In between, an answer
// streams below the chat: how far the view lags the bottom while following it, and how far a
// reader who scrolled up is moved. Figures only.
import { openBench, performanceMetrics } from './bench-page.mjs';

const messageCount = Number(process.env.BENCH_MESSAGES ?? 1000);
const chunkCount = Number(process.env.BENCH_CHUNKS ?? 1500);
const rate = Number(process.env.BENCH_RATE ?? 150);

const bench = await openBench('chat');
const ms = (value) => (value === null ? 'none ≥50 ms' : `${value.toFixed(0)} ms`);

async function freshPage() {
  const page = await bench.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(bench.url);
  await page.waitForFunction(() => 'stream' in window);
  return page;
}

try {
  console.log(`Long chat: ${messageCount} messages, pages of 20 (Chromium ${bench.browser.version()})\n`);
  const page = await freshPage();
  const metrics = await performanceMetrics(page);
  const opened = await page.evaluate((total) => window.openChat(total), messageCount);
  const scrolled = await page.evaluate((total) => window.scrollToTop(total), messageCount);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { Nodes: nodes } = await metrics();
  console.log(`open (newest page)          ${ms(opened.openMs)}, longest task ${ms(opened.longestTaskMs)}`);
  console.log(`scroll to top               ${scrolled.pages} pages in ${(scrolled.scrollMs / 1000).toFixed(1)} s, longest task ${ms(scrolled.longestTaskMs)}`);
  console.log(
    `reading position            moved at most ${scrolled.maxDriftPx.toFixed(0)} px when a page arrived${scrolled.lost ? ` (lost ${scrolled.lost} times)` : ''}`,
  );
  console.log(`DOM at the top              ${scrolled.elements} elements, ${nodes} nodes (DevTools count), ${scrolled.renderedMessages} message rows rendered`);
  await page.close();

  const pinPage = await freshPage();
  const pinned = await pinPage.evaluate(([total, r, n]) => window.pinning(total, r, n), [messageCount, rate, Math.min(chunkCount, 900)]);
  console.log(
    `stream, reader at bottom    at the bottom after ${pinned.samplesAtBottom} of ${pinned.samples} growth steps (largest gap ${pinned.maxGapPx.toFixed(0)} px)`,
  );
  console.log(
    `stream, reader scrolled up  moved ${pinned.readerMovedPx.toFixed(0)} px while the answer grew${pinned.anchorKept ? '' : ' (read row left the DOM)'}`,
  );
  await pinPage.close();

  console.log(`\nOne answer of ${chunkCount} chunks at ${rate} chunks/s, alone on screen:\n`);
  console.log('renderer | script per chunk | main thread per chunk | longest task');
  console.log('-------- | ---------------- | --------------------- | ------------');
  const perChunk = {};
  for (const kind of ['naive', 'ours']) {
    const streamPage = await freshPage();
    const streamMetrics = await performanceMetrics(streamPage);
    const before = await streamMetrics();
    const result = await streamPage.evaluate(([k, r, n]) => window.stream(k, r, n), [kind, rate, chunkCount]);
    const after = await streamMetrics();
    perChunk[kind] = {
      script: ((after.ScriptDuration - before.ScriptDuration) * 1000) / result.chunks,
      task: ((after.TaskDuration - before.TaskDuration) * 1000) / result.chunks,
    };
    console.log(
      [kind.padEnd(8), `${perChunk[kind].script.toFixed(2)} ms`.padEnd(16), `${perChunk[kind].task.toFixed(2)} ms`.padEnd(21), ms(result.longestTaskMs)].join(
        ' | ',
      ),
    );
    await streamPage.close();
  }
  console.log(
    `\nnaive / ours: ${(perChunk.naive.script / perChunk.ours.script).toFixed(1)}× script time, ${(perChunk.naive.task / perChunk.ours.task).toFixed(1)}× main-thread time`,
  );
} finally {
  await bench.close();
}

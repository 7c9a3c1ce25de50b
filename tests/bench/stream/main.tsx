import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import '@mantine/core/styles.css';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import chatEn from '../../../src/renderer/src/i18n/locales/en/chat.json';
import type { ChatFrame } from '../../../src/shared/api';
import type { ChatStreamRequest } from '../../../src/renderer/src/platform/types';
import { ChatRun } from '../../../src/renderer/src/features/chat/chatRun';
import { specChunksToRelease } from '../../../src/renderer/src/features/chat/outputBatcher';
import { MessageList } from '../../../src/renderer/src/features/chat/MessageList';
import { answerChunks, emitAtRate, historyMessages } from './answer';

/**
 * Streams a long markdown answer at a fixed rate into the real message list of the chat screen
 * (batcher, markdown rendering, highlighting, autoscroll), below a history of earlier messages,
 * and measures, per chunk, the time from its arrival to the first frame that shows it.
 */
void i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { chat: chatEn } }, initAsync: false });

interface BenchResult {
  chunks: number;
  durationMs: number;
  lagP50: number;
  lagP95: number;
  lagMax: number;
  longestTaskMs: number | null;
}

const face = { name: 'Bench', imageUrl: null };
const root = createRoot(document.getElementById('root')!);

/** Earlier turns above the streaming answer, so the bench also shows what a long chat costs. */
const search = new URLSearchParams(location.search);
const history = historyMessages(Number(search.get('history') ?? 0));
/** `?batching=spec`: spec §9's counts alone, to compare with the catch-up rule the app uses. */
const releaseRule = search.get('batching') === 'spec' ? specChunksToRelease : undefined;

function App({ run }: { run: ChatRun | null }) {
  return (
    <MantineProvider>
      <I18nextProvider i18n={i18next}>
        <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }} id="thread">
          <MessageList messages={history} run={run} face={face} hasOlder={false} loadingOlder={false} onLoadOlder={() => {}} empty={null} />
        </div>
      </I18nextProvider>
    </MantineProvider>
  );
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** A local stand-in for platform.streamChat that emits `rate` text chunks per second. */
function generator(chunks: string[], rate: number, arrivals: number[]) {
  return async ({ onMeta, onFrame, signal }: ChatStreamRequest) => {
    onMeta({ session_hash_id: 'bench', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'bench' });
    await emitAtRate(
      chunks,
      rate,
      (delta) => {
        arrivals.push(performance.now());
        onFrame({ type: 'text', delta } satisfies ChatFrame);
      },
      signal,
    );
    onFrame({ type: 'end', finish_reason: 'stop' });
  };
}

async function runBench(rate: number, chunkCount: number): Promise<BenchResult> {
  const chunks = answerChunks(chunkCount);
  const ends: number[] = [];
  let offset = 0;
  for (const chunk of chunks) ends.push((offset += chunk.length));
  const arrivals: number[] = [];
  const shownAt: number[] = [];

  let longestTask: number | null = null;
  const longTasks = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longestTask = Math.max(longestTask ?? 0, entry.duration);
  });
  longTasks.observe({ type: 'longtask', buffered: false });

  const run = new ChatRun({ chatbotId: 1, body: { text: 'Explain the stream benchmark.' }, streamChat: generator(chunks, rate, arrivals), releaseRule });
  root.render(<App run={run} />);

  // After each commit, the chunks now in the DOM are visible from the next frame on.
  const thread = document.getElementById('thread')!;
  const mutations = new MutationObserver(() => {
    const length = run.getSnapshot().text.length;
    requestAnimationFrame(() => {
      const now = performance.now();
      while (shownAt.length < ends.length && ends[shownAt.length]! <= length) shownAt.push(now);
    });
  });
  mutations.observe(thread, { childList: true, subtree: true, characterData: true });

  const started = performance.now();
  await run.start();
  while (shownAt.length < chunks.length) await new Promise((resolve) => setTimeout(resolve, 20));
  const durationMs = performance.now() - started;
  mutations.disconnect();
  longTasks.disconnect();

  const lags = shownAt.map((at, index) => at - arrivals[index]!).sort((a, b) => a - b);
  root.render(<App run={null} />);
  return {
    chunks: chunks.length,
    durationMs,
    lagP50: percentile(lags, 0.5),
    lagP95: percentile(lags, 0.95),
    lagMax: lags.at(-1) ?? 0,
    longestTaskMs: longestTask,
  };
}

Object.assign(window, { runBench });
root.render(<App run={null} />);

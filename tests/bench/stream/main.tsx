import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import '@mantine/core/styles.css';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import chatEn from '../../../src/renderer/src/i18n/locales/en/chat.json';
import type { ChatFrame } from '../../../src/shared/api';
import { ChatRun } from '../../../src/renderer/src/features/chat/chatRun';
import { MessageList } from '../../../src/renderer/src/features/chat/MessageList';
import { answerChunks, emitAtRate, historyMessages } from './answer';
import type { BenchRenderer } from './harness';

/**
 * Streams a long markdown answer at a fixed rate into a renderer and measures, per chunk, the time
 * from its arrival to the first frame that shows it. `?renderer=app` (the default): the real
 * message list of the chat screen (batcher, markdown rendering, highlighting, formulas, diagrams,
 * autoscroll) below a history of earlier messages (`?history=`); `streamdown` and
 * `react-markdown`: the peers (peers.tsx), loaded only on their own pages; `plain`: the floor.
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
const search = new URLSearchParams(location.search);
/** Earlier turns above the streaming answer, so the bench also shows what a long chat costs. */
const history = historyMessages(Number(search.get('history') ?? 0));

function App({ run }: { run: ChatRun | null }) {
  return (
    <MantineProvider>
      <I18nextProvider i18n={i18next}>
        <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
          <MessageList messages={history} run={run} face={face} hasOlder={false} loadingOlder={false} onLoadOlder={() => {}} empty={null} />
        </div>
      </I18nextProvider>
    </MantineProvider>
  );
}

/** The chat's message list, fed through a ChatRun as platform.streamChat would feed it. */
function appRenderer(): BenchRenderer {
  const root = createRoot(document.getElementById('root')!);
  let run: ChatRun | null = null;
  let onFrame: (frame: ChatFrame) => void = () => {};
  let close = () => {};
  root.render(<App run={null} />);
  return {
    start() {
      run = new ChatRun({
        chatbotId: 1,
        body: { text: 'Explain the stream benchmark.' },
        streamChat: (request) =>
          new Promise<void>((resolve) => {
            request.onMeta({ session_hash_id: 'bench', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'bench' });
            onFrame = request.onFrame;
            close = resolve;
          }),
      });
      void run.start();
      root.render(<App run={run} />);
    },
    push: (delta) => onFrame({ type: 'text', delta }),
    end() {
      onFrame({ type: 'end', finish_reason: 'stop' });
      close();
    },
    shownLength: () => run?.getSnapshot().text.length ?? 0,
    stop: () => root.render(<App run={null} />),
  };
}

/** The floor: each chunk appended to one text node as it arrives (what the harness itself costs). */
function plainRenderer(): BenchRenderer {
  const text = document.createTextNode('');
  return {
    start: () => document.getElementById('root')!.replaceChildren(text),
    push: (delta) => text.appendData(delta),
    end: () => {},
    shownLength: () => text.length,
    stop: () => (text.data = ''),
  };
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

async function runBench(renderer: BenchRenderer, rate: number, chunkCount: number): Promise<BenchResult> {
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

  renderer.start();
  // After each commit, the chunks now in the DOM are visible from the next frame on.
  const mutations = new MutationObserver(() => {
    const length = renderer.shownLength();
    requestAnimationFrame(() => {
      const now = performance.now();
      while (shownAt.length < ends.length && ends[shownAt.length]! <= length) shownAt.push(now);
    });
  });
  mutations.observe(document.getElementById('root')!, { childList: true, subtree: true, characterData: true });

  const started = performance.now();
  await emitAtRate(chunks, rate, (delta) => {
    arrivals.push(performance.now());
    renderer.push(delta);
  });
  renderer.end();
  while (shownAt.length < chunks.length) await new Promise((resolve) => setTimeout(resolve, 20));
  const durationMs = performance.now() - started;
  mutations.disconnect();
  longTasks.disconnect();

  const lags = shownAt.map((at, index) => at - arrivals[index]!).sort((a, b) => a - b);
  renderer.stop();
  return {
    chunks: chunks.length,
    durationMs,
    lagP50: percentile(lags, 0.5),
    lagP95: percentile(lags, 0.95),
    lagMax: lags.at(-1) ?? 0,
    longestTaskMs: longestTask,
  };
}

const kind = search.get('renderer') ?? 'app';
const renderer =
  kind === 'app'
    ? appRenderer()
    : kind === 'plain'
      ? plainRenderer()
      : (await import('./peers')).peerRenderer(kind === 'streamdown' ? 'streamdown' : 'react-markdown');
Object.assign(window, { runBench: (rate: number, chunkCount: number) => runBench(renderer, rate, chunkCount) });

import { useCallback, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, Typography } from '@mantine/core';
import '@mantine/core/styles.css';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Marked } from 'marked';
import hljs from 'highlight.js/lib/common';
import chatEn from '../../../src/renderer/src/i18n/locales/en/chat.json';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../src/shared/domain/pagination';
import type { ChatStreamRequest } from '../../../src/renderer/src/platform/types';
import { sanitizeHtml } from '../../../src/renderer/src/components/sanitizeHtml';
import { ChatRun } from '../../../src/renderer/src/features/chat/chatRun';
import { MessageList } from '../../../src/renderer/src/features/chat/MessageList';
import { answerChunks, emitAtRate, historyMessages } from '../stream/answer';
import type { BranchActions } from '../../../src/renderer/src/features/chat/BranchControls';

/** The chat screen's rows carry their branch buttons (regenerate, edit, versions); nothing is sent here. */
const BRANCHING: BranchActions = { regenerate: () => {}, edit: () => {}, switchTo: () => {}, busy: false };

/**
 * A long chat in the real message list: opened at its newest page, then scrolled to the top one
 * history page (20 messages, like `first_id` paging) at a time. A second part streams one answer
 * into the real list and into a naive renderer (whole message through marked on every chunk).
 */
void i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { chat: chatEn } }, initAsync: false });

const face = { name: 'Bench', imageUrl: null };
const root = createRoot(document.getElementById('root')!);
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

const longTasks: PerformanceEntry[] = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });
const longestTaskSince = (start: number) =>
  longTasks.filter((task) => task.startTime >= start).reduce<number | null>((max, task) => Math.max(max ?? 0, task.duration), null);

/** What the harness has loaded, for the scroll loop to wait on. */
const paging = { loaded: 0, loading: false };

/** Stands in for ChatPage's history query: older pages arrive on the next task, as from a cache. */
function LongChat({ total, run }: { total: number; run: ChatRun | null }) {
  const all = useMemo(() => historyMessages(total), [total]);
  const [loaded, setLoaded] = useState(SESSION_HISTORY_PAGE_SIZE);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const messages = useMemo(() => all.slice(Math.max(0, all.length - loaded)), [all, loaded]);
  const onLoadOlder = useCallback(() => {
    setLoadingOlder(true);
    setTimeout(() => {
      setLoaded((count) => count + SESSION_HISTORY_PAGE_SIZE);
      setLoadingOlder(false);
    }, 0);
  }, []);
  useEffect(() => {
    paging.loaded = messages.length;
    paging.loading = loadingOlder;
  }, [messages.length, loadingOlder]);
  return (
    <MessageList
      messages={messages}
      run={run}
      face={face}
      hasOlder={loaded < all.length}
      loadingOlder={loadingOlder}
      onLoadOlder={onLoadOlder}
      empty={null}
      branching={BRANCHING}
    />
  );
}

function Screen({ children }: { children: React.ReactNode }) {
  return (
    <MantineProvider>
      <I18nextProvider i18n={i18next}>
        <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>{children}</div>
      </I18nextProvider>
    </MantineProvider>
  );
}

const scroller = () => document.querySelector<HTMLElement>('[data-testid="message-list"]')!;

async function openChat(total: number) {
  const start = performance.now();
  root.render(
    <Screen>
      <LongChat total={total} run={null} />
    </Screen>,
  );
  await nextFrame();
  return { openMs: performance.now() - start, longestTaskMs: longestTaskSince(start) };
}

/** The first member message on screen: its text (unique) and its distance from the list's top. */
function firstVisibleQuestion() {
  const top = scroller().getBoundingClientRect().top;
  for (const element of document.querySelectorAll<HTMLElement>('[data-testid="member-message"]')) {
    const offset = element.getBoundingClientRect().top - top;
    if (offset >= 0) return { text: element.textContent, offset };
  }
  return null;
}

function offsetOf(text: string | null) {
  const top = scroller().getBoundingClientRect().top;
  for (const element of document.querySelectorAll<HTMLElement>('[data-testid="member-message"]')) {
    if (element.textContent === text) return element.getBoundingClientRect().top - top;
  }
  return null;
}

/** Scrolls to the top until every page is loaded; after each page, how far the read message moved. */
async function scrollToTop(total: number) {
  const start = performance.now();
  let pages = 0;
  let maxDriftPx = 0;
  let lost = 0;
  while (paging.loaded < total) {
    const before = paging.loaded;
    scroller().scrollTop = 0;
    await nextFrame();
    const anchor = firstVisibleQuestion();
    const deadline = performance.now() + 5000;
    while ((paging.loaded === before || paging.loading) && performance.now() < deadline) await nextFrame();
    if (paging.loaded === before) throw new Error(`no older page after ${before} messages`);
    await nextFrame();
    await nextFrame();
    pages += 1;
    const after = anchor ? offsetOf(anchor.text) : null;
    if (anchor && after === null) lost += 1;
    else if (anchor && after !== null) maxDriftPx = Math.max(maxDriftPx, Math.abs(after - anchor.offset));
  }
  return {
    pages,
    scrollMs: performance.now() - start,
    longestTaskMs: longestTaskSince(start),
    maxDriftPx,
    lost,
    elements: document.getElementsByTagName('*').length,
    renderedMessages: document.querySelectorAll('[data-testid="member-message"], [data-testid="chatbot-message"]').length,
  };
}

const naiveMarked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0];
      const body = language && hljs.getLanguage(language) ? hljs.highlight(text, { language, ignoreIllegals: true }).value : text;
      return `<pre><code class="hljs">${body}</code></pre>\n`;
    },
  },
});

/** The naive way: every chunk re-renders the whole message, parsed again from its first character. */
function NaiveAnswer({ chunks, rate, onDone }: { chunks: string[]; rate: number; onDone: () => void }) {
  const [text, setText] = useState('');
  useEffect(() => {
    void emitAtRate(chunks, rate, (chunk) => setText((current) => current + chunk)).then(onDone);
  }, [chunks, rate, onDone]);
  return <Typography dangerouslySetInnerHTML={{ __html: sanitizeHtml(naiveMarked.parse(text, { async: false })) }} />;
}

/** Streams `chunkCount` chunks at `rate` per second into our list or the naive renderer. */
async function stream(kind: 'ours' | 'naive', rate: number, chunkCount: number) {
  const chunks = answerChunks(chunkCount);
  const start = performance.now();
  if (kind === 'naive') {
    await new Promise<void>((resolve) =>
      root.render(
        <Screen>
          <NaiveAnswer chunks={chunks} rate={rate} onDone={resolve} />
        </Screen>,
      ),
    );
  } else {
    const streamChat = async ({ onMeta, onFrame, signal }: ChatStreamRequest) => {
      onMeta({ session_hash_id: 'bench', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'bench' });
      await emitAtRate(chunks, rate, (delta) => onFrame({ type: 'text', delta }), signal);
      onFrame({ type: 'end', finish_reason: 'stop' });
    };
    const run = new ChatRun({ chatbotId: 1, body: { text: 'Explain the stream benchmark.' }, streamChat });
    root.render(
      <Screen>
        <MessageList messages={[]} run={run} face={face} hasOlder={false} loadingOlder={false} onLoadOlder={() => {}} empty={null} />
      </Screen>,
    );
    await run.start();
    const answer = chunks.join('');
    while (run.getSnapshot().text !== answer) await nextFrame();
  }
  // Let the last batch and frame land.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await nextFrame();
  return { chunks: chunks.length, durationMs: performance.now() - start, longestTaskMs: longestTaskSince(start) };
}

/** A stream at the end of a long chat: how far from the bottom a following reader gets, and how far a reader who scrolled up is moved. */
async function pinning(total: number, rate: number, chunkCount: number) {
  const chunks = answerChunks(chunkCount);
  const streamChat = async ({ onMeta, onFrame, signal }: ChatStreamRequest) => {
    onMeta({ session_hash_id: 'bench', session_created: false, member_message_id: total + 1, chatbot_message_id: total + 2, model: 'bench' });
    await emitAtRate(chunks, rate, (delta) => onFrame({ type: 'text', delta }), signal);
    onFrame({ type: 'end', finish_reason: 'stop' });
  };
  const run = new ChatRun({ chatbotId: 1, body: { text: 'Explain the stream benchmark.' }, streamChat });
  root.render(
    <Screen>
      <LongChat total={total} run={run} />
    </Screen>,
  );
  const done = run.start();
  let settled = false;
  void done.then(() => (settled = true));
  await nextFrame();
  const list = scroller();
  const gapFromBottom = () => list.scrollHeight - list.scrollTop - list.clientHeight;
  // First half: the reader follows the answer (once the opened chat has settled). Sampled each
  // time the answer grows, in a ResizeObserver made after the list's own, so after the list has
  // reacted and before the frame is painted: what the reader sees.
  await new Promise((resolve) => setTimeout(resolve, 500));
  let maxGapPx = 0;
  let samples = 0;
  let samplesAtBottom = 0;
  const answer = list.querySelector('[data-streaming]');
  const sampler = new ResizeObserver(() => {
    const gap = gapFromBottom();
    maxGapPx = Math.max(maxGapPx, gap);
    samples += 1;
    if (gap <= 1) samplesAtBottom += 1;
  });
  if (answer) sampler.observe(answer);
  await new Promise((resolve) => setTimeout(resolve, (chunkCount / rate) * 500));
  sampler.disconnect();
  // Second half: the reader scrolls up to read something and should stay there.
  list.scrollTop -= 400;
  await nextFrame();
  const listTop = list.getBoundingClientRect().top;
  // The first message on screen, maybe the answer itself with its top above the screen.
  const anchor = [...list.querySelectorAll<HTMLElement>('[data-testid$="-message"]')].find((row) => row.getBoundingClientRect().bottom > listTop);
  const startTop = anchor?.getBoundingClientRect().top ?? 0;
  let readerMovedPx = 0;
  while (!settled) {
    await nextFrame();
    if (anchor?.isConnected) readerMovedPx = Math.max(readerMovedPx, Math.abs(anchor.getBoundingClientRect().top - startTop));
  }
  return { samples, samplesAtBottom, maxGapPx, readerMovedPx, anchorKept: anchor?.isConnected ?? false };
}

Object.assign(window, { pinning, openChat, scrollToTop, stream, longTasks });

import { useLayoutEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Streamdown } from 'streamdown';
import mermaid from 'mermaid';
import type { BenchRenderer } from './harness';

/**
 * The peers bench:stream measures beside the chat's renderer, each on its own page, fed the same
 * chunks at the same rates: Vercel's streamdown (its own block splitting and memoisation, Mermaid
 * through its diagram plugin) and react-markdown re-rendered on every chunk, the naive way. Neither
 * has formulas or code highlighting here (their plugins are not installed), so they do less work
 * than the chat's renderer. Both follow the bottom of their column like the chat does.
 */
const mermaidPlugin = {
  name: 'mermaid' as const,
  type: 'diagram' as const,
  language: 'mermaid',
  getMermaid(config?: Parameters<typeof mermaid.initialize>[0]) {
    if (config) mermaid.initialize(config);
    return mermaid;
  },
};

function Answer({ kind, text, streaming }: { kind: 'streamdown' | 'react-markdown'; text: string; streaming: boolean }) {
  if (kind === 'streamdown') {
    return (
      <Streamdown isAnimating={streaming} plugins={{ mermaid: mermaidPlugin }}>
        {text}
      </Streamdown>
    );
  }
  return <ReactMarkdown remarkPlugins={[remarkGfm]}>{text}</ReactMarkdown>;
}

/** A chunk's arrival sets the state at once: one render per task that delivered chunks. */
export function peerRenderer(kind: 'streamdown' | 'react-markdown'): BenchRenderer {
  const root = createRoot(document.getElementById('root')!);
  let push: (delta: string) => void = () => {};
  let end: () => void = () => {};
  let shown = 0;

  function Column() {
    const [text, setText] = useState('');
    const [streaming, setStreaming] = useState(true);
    const scroller = useRef<HTMLDivElement>(null);
    push = (delta) => setText((current) => current + delta);
    end = () => setStreaming(false);
    useLayoutEffect(() => {
      shown = text.length;
      const element = scroller.current!;
      element.scrollTop = element.scrollHeight;
    }, [text]);
    return (
      <div ref={scroller} id="thread" style={{ height: '100vh', overflowY: 'auto', padding: '24px 16px', maxWidth: 820, margin: '0 auto' }}>
        <p>Explain the stream benchmark.</p>
        <Answer kind={kind} text={text} streaming={streaming} />
      </div>
    );
  }

  return {
    start: () => root.render(<Column />),
    push: (delta) => push(delta),
    end: () => end(),
    shownLength: () => shown,
    stop: () => root.render(null),
  };
}

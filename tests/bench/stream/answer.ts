import type { SessionMessage } from '../../../src/shared/api';
import { testMessage } from '../../../src/renderer/src/test/fixtures';

/** A long, realistic markdown answer (headings, lists, tables, code, formulas, a diagram), cut into token-sized chunks. */
const sections = [
  '## Overview\n\nStreaming an answer means the client receives **small pieces of text** as the model produces them. Each piece is appended to the message, and the markdown is rendered again so that lists, tables and `inline code` look right while they grow.\n\n',
  '### Steps\n\n1. The composer sends the message.\n2. The server saves it and opens the model stream.\n3. Every delta becomes a `text` frame.\n4. The client batches frames every 50 ms.\n   - nested item with a [link](https://example.org/docs)\n   - another nested item\n\n',
  '```ts\nexport function chunksPerTick(queueLength: number): number {\n  if (queueLength > 100) return 8;\n  if (queueLength > 50) return 4;\n  if (queueLength > 5) return 2;\n  return 1;\n}\n```\n\n',
  '| Rate | Expected lag | Notes |\n| --- | --- | --- |\n| 50/s | low | typing rhythm |\n| 150/s | low | catch-up starts |\n| 500/s | bounded | catch-up dominates |\n\n',
  '> A quote that explains why the screen should never fall far behind the network, even when the model is very fast.\n\n',
  'Paragraph text with *emphasis*, some **bold words**, a little `code`, and enough plain prose to make the paragraph wrap over several lines in a typical chat column, the way real answers do.\n\n',
  '```python\ndef fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n```\n\n',
  'The lag grows like $O(n \\log n)$ when each tick costs $c \\cdot n$, and the plan costs $5 or $10:\n\n$$\n\\sum_{k=1}^{n} \\frac{1}{k^2} \\le \\frac{\\pi^2}{6}\n$$\n\n',
  '```mermaid\nflowchart LR\n  A[Model] --> B[Server]\n  B --> C{Batch?}\n  C -->|every 50 ms| D[Screen]\n```\n\n',
];

export function answerChunks(count: number): string[] {
  const chunks: string[] = [];
  for (let section = 0; chunks.length < count; section++) {
    const text = sections[section % sections.length]!;
    // Roughly token-sized pieces: 1 to 6 characters, cut deterministically.
    for (let i = 0; i < text.length && chunks.length < count;) {
      const size = 1 + ((i * 7 + section * 3) % 6);
      chunks.push(text.slice(i, i + size));
      i += size;
    }
  }
  return chunks;
}

/** A chat history of `count` messages (oldest first): short questions and markdown answers. */
export function historyMessages(count: number): SessionMessage[] {
  return (
    answerChunks(count * 40)
      .reduce<string[]>((turns, chunk, index) => {
        if (index % 40 === 0) turns.push('');
        turns[turns.length - 1] += chunk;
        return turns;
      }, [])
      .slice(0, count)
      // Odd ids the member's questions, even ones the answers, one branch: the test fixture's own layout.
      .map((text, index) => testMessage(index + 1, { text: index % 2 === 0 ? `Question ${index / 2 + 1}` : text }))
  );
}

/**
 * Calls `onChunk` with `rate` chunks per second, as a model stream would deliver them: one task
 * when the next chunk is due (as a network read would be), with every chunk due by then.
 */
export function emitAtRate(chunks: string[], rate: number, onChunk: (chunk: string) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const start = performance.now();
    let sent = 0;
    const emit = () => {
      const due = Math.min(chunks.length, Math.floor(((performance.now() - start) * rate) / 1000));
      while (sent < due) onChunk(chunks[sent++]!);
      if (sent === chunks.length || signal?.aborted) return resolve();
      setTimeout(emit, Math.max(0, start + ((sent + 1) * 1000) / rate - performance.now()));
    };
    setTimeout(emit, 1000 / rate);
  });
}

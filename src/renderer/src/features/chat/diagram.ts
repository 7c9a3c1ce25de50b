/** Longer sources stay code: no answer needs such a diagram, and Mermaid's layout time grows fast. */
export const MAX_DIAGRAM_SOURCE = 10_000;

export type DiagramState = { status: 'drawing' } | { status: 'drawn'; svg: string } | { status: 'failed'; reason: 'invalid' | 'too_large' };

const DRAWING: DiagramState = { status: 'drawing' };
const TOO_LARGE: DiagramState = { status: 'failed', reason: 'too_large' };
const INVALID: DiagramState = { status: 'failed', reason: 'invalid' };

/** Diagrams by source, drawn once each: the thread's rows mount again as it scrolls. */
const states = new Map<string, DiagramState>();
const DIAGRAM_CACHE_LIMIT = 100;
const listeners = new Set<() => void>();

function settle(source: string, state: DiagramState): void {
  if (states.size >= DIAGRAM_CACHE_LIMIT) states.delete(states.keys().next().value!);
  states.set(source, state);
  for (const listener of listeners) listener();
}

/** What is known of the diagram `source`; `drawDiagram` starts drawing it. */
export function diagramState(source: string): DiagramState {
  if (source.length > MAX_DIAGRAM_SOURCE) return TOO_LARGE;
  return states.get(source) ?? DRAWING;
}

/**
 * Draws `source` unless it is drawn or being drawn: Mermaid (its own chunks, loaded by the first
 * diagram) renders it to SVG, which is sanitized before anyone shows it.
 */
export function drawDiagram(source: string): void {
  if (source.length > MAX_DIAGRAM_SOURCE || states.has(source)) return;
  states.set(source, DRAWING);
  import('./mermaidRender')
    .then(({ mermaidToSvg }) => mermaidToSvg(source))
    .then(
      (svg) => settle(source, svg === null ? INVALID : { status: 'drawn', svg }),
      // The chunk did not load (offline): shown as code, like a diagram Mermaid cannot read.
      () => settle(source, INVALID),
    );
}

/** For useSyncExternalStore: called when a diagram is drawn or failed. */
export function subscribeDiagrams(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * What a screen reader hears the diagram called: its accessible title (`accTitle:`), else its title
 * (front matter, a `title` line, `pie title …`), else its first line ("flowchart LR").
 */
export function diagramTitle(source: string): string {
  const title = /^[ \t]*(?:accTitle[ \t]*:|(?:pie[ \t]+)?title\b[ \t]*:?)[ \t]*(\S.*)$/m.exec(source)?.[1];
  if (title) return title.trim();
  const lines = source.split('\n').map((line) => line.trim());
  return lines.find((line) => line !== '' && line !== '---' && !line.startsWith('%%')) ?? '';
}

import { Marked, type Token, type Tokens } from 'marked';
import { sanitizeHtml } from '../../components/sanitizeHtml';
import { escapeHtml } from './escapeHtml';
import { highlightCode, isGrammarPending } from './highlight';
import { renderFormula } from './math';
import { mathExtensions, type MathToken } from './mathSyntax';

/** Set while rendering a block that waits for an on-demand module (a code grammar, KaTeX). */
let blockAwaitsModule = false;

/** A formula in its place, or its source as text while KaTeX loads. */
function formulaHtml(token: MathToken): string {
  const html = renderFormula(token);
  if (html !== null) return html;
  blockAwaitsModule = true;
  return token.type === 'mathBlock' ? `<p>${escapeHtml(token.raw.trim())}</p>` : escapeHtml(token.raw);
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  extensions: mathExtensions(formulaHtml),
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0];
      // Only named languages are highlighted: auto-detection is far too slow to redo every tick.
      const highlighted = language ? highlightCode(text, language) : null;
      if (highlighted === null && language && isGrammarPending(language)) blockAwaitsModule = true;
      const langClass = language ? ` language-${escapeHtml(language)}` : '';
      return `<pre><code class="hljs${langClass}">${highlighted ?? escapeHtml(text)}</code></pre>\n`;
    },
  },
});

/** Rendered blocks by their markdown source: a streaming answer re-renders only its last block. */
const blockCache = new Map<string, string>();
const BLOCK_CACHE_LIMIT = 2000;

function renderBlock(token: Token): string {
  const cached = blockCache.get(token.raw);
  if (cached !== undefined) return cached;
  blockAwaitsModule = false;
  const html = sanitizeHtml(marked.parser([token]));
  // Rendered plain while a module it needs loads: render it again once the module is there.
  if (blockAwaitsModule) return html;
  if (blockCache.size >= BLOCK_CACHE_LIMIT) {
    const oldest = blockCache.keys().next().value;
    if (oldest !== undefined) blockCache.delete(oldest);
  }
  blockCache.set(token.raw, html);
  return html;
}

/**
 * One top-level block of an answer, as sanitized HTML. Code blocks and display formulas carry their
 * source for a copy button; a complete Mermaid block is a diagram, whose `html` (its source as a
 * code block) shows until it is drawn and when it cannot be.
 */
export type MarkdownBlock = { kind: 'text'; html: string } | { kind: 'code' | 'formula' | 'diagram'; html: string; source: string };

/** Whether a fenced block's closing fence has arrived (an open fence runs to the end of the text). */
function isFenceClosed(raw: string): boolean {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
  if (!fence) return true; // an indented code block: nothing to close
  return new RegExp(`\\n {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*\\n*$`).test(raw);
}

function blockOf(token: Token, streaming: boolean): MarkdownBlock {
  const html = renderBlock(token);
  if (token.type === 'mathBlock') return { kind: 'formula', html, source: (token as MathToken).text };
  if (token.type !== 'code') return { kind: 'text', html };
  const code = token as Tokens.Code;
  // Drawn once its block is complete, never from half a diagram while the answer streams.
  const diagram = code.lang?.trim().split(/\s+/)[0]?.toLowerCase() === 'mermaid' && (!streaming || isFenceClosed(code.raw));
  return { kind: diagram ? 'diagram' : 'code', html, source: code.text };
}

/**
 * Markdown to sanitized HTML, one block per top-level block (paragraph, list, code block, display
 * formula…). Raw HTML in the source is sanitized away; links open in a new window without an
 * opener. `$…$`, `\(…\)`, `$$…$$` and `\[…\]` are formulas (mathSyntax.ts). Code in a language whose
 * grammar is not loaded yet, and formulas before KaTeX has loaded, come back plain and start the
 * load; `subscribeOnDemand` tells when rendering again would draw them. While `streaming`, a
 * Mermaid block whose closing fence has not arrived is still code.
 */
export function renderMarkdownBlocks(markdown: string, { streaming = false } = {}): MarkdownBlock[] {
  return marked
    .lexer(markdown)
    .filter((token) => token.type !== 'space')
    .map((token) => blockOf(token, streaming));
}

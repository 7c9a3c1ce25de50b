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

/** `cached`: false when the text defines link references, which make a block's HTML depend on more than its source. */
function renderBlock(token: Token, cached: boolean): string {
  const known = cached ? blockCache.get(token.raw) : undefined;
  if (known !== undefined) return known;
  blockAwaitsModule = false;
  const html = sanitizeHtml(marked.parser([token]));
  // Rendered plain while a module it needs loads: render it again once the module is there.
  if (blockAwaitsModule || !cached) return html;
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

function blockOf(token: Token, streaming: boolean, cached: boolean): MarkdownBlock {
  const html = renderBlock(token, cached);
  if (token.type === 'mathBlock') return { kind: 'formula', html, source: (token as MathToken).text };
  if (token.type !== 'code') return { kind: 'text', html };
  const code = token as Tokens.Code;
  // Drawn once its block is complete, never from half a diagram while the answer streams.
  const diagram = code.lang?.trim().split(/\s+/)[0]?.toLowerCase() === 'mermaid' && (!streaming || isFenceClosed(code.raw));
  return { kind: diagram ? 'diagram' : 'code', html, source: code.text };
}

/** A rendered text, kept to render its next, longer version (`renderMarkdown`'s `previous`). */
export interface RenderedMarkdown {
  markdown: string;
  streaming: boolean;
  blocks: MarkdownBlock[];
  /** Where the last block's source starts in `markdown`; null when unknown (nothing is carried over then). */
  lastStart: number | null;
}

/** A link reference definition (`[name]: url`) changes links anywhere in the text, before it too. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * Markdown to sanitized HTML, one block per top-level block (paragraph, list, code block, display
 * formula…). Raw HTML in the source is sanitized away; links open in a new window without an
 * opener. `$…$`, `\(…\)`, `$$…$$` and `\[…\]` are formulas (mathSyntax.ts). Code in a language whose
 * grammar is not loaded yet, and formulas before KaTeX has loaded, come back plain and start the
 * load; `subscribeOnDemand` tells when rendering again would draw them. While `streaming`, a
 * Mermaid block whose closing fence has not arrived is still code.
 *
 * With `previous`, the rendering of a text this one extends (an answer streaming in), only the
 * source from the previous last block on is read again: every block before it is finished, since
 * markdown appended at the end can only continue or change the last block. A text with a link
 * reference definition is read and rendered whole, without the block cache: a definition changes
 * links anywhere in the text.
 */
export function renderMarkdown(
  markdown: string,
  { streaming = false, previous = null }: { streaming?: boolean; previous?: RenderedMarkdown | null } = {},
): RenderedMarkdown {
  const hasDefinitions = REFERENCE_DEFINITION.test(markdown);
  const carried =
    !hasDefinitions && previous !== null && previous.lastStart !== null && previous.streaming === streaming && markdown.startsWith(previous.markdown);
  const from = carried ? previous.lastStart! : 0;
  const blocks = carried ? previous.blocks.slice(0, -1) : [];
  let lastStart: number | null = from;
  let offset = from;
  // marked's tokens cover the source in order; should one not match it, nothing is carried over.
  let aligned = !hasDefinitions;
  for (const token of marked.lexer(from === 0 ? markdown : markdown.slice(from))) {
    aligned &&= markdown.startsWith(token.raw, offset);
    if (token.type !== 'space') {
      blocks.push(blockOf(token, streaming, !hasDefinitions));
      lastStart = aligned ? offset : null;
    }
    offset += token.raw.length;
  }
  return { markdown, streaming, blocks, lastStart: aligned ? lastStart : null };
}

/** `renderMarkdown`'s blocks, for a text rendered once. */
export const renderMarkdownBlocks = (markdown: string, options: { streaming?: boolean } = {}): MarkdownBlock[] => renderMarkdown(markdown, options).blocks;

import { Marked, type Token, type Tokens } from 'marked';
import { sanitizeHtml } from '../../components/sanitizeHtml';
import { highlightCode, isGrammarPending } from './highlight';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Set while rendering a block whose code names a grammar that is still loading. */
let blockAwaitsGrammar = false;

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0];
      // Only named languages are highlighted: auto-detection is far too slow to redo every tick.
      const highlighted = language ? highlightCode(text, language) : null;
      if (highlighted === null && language && isGrammarPending(language)) blockAwaitsGrammar = true;
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
  blockAwaitsGrammar = false;
  const html = sanitizeHtml(marked.parser([token]));
  // Rendered plain while its grammar loads: render it again once the grammar is there.
  if (blockAwaitsGrammar) return html;
  if (blockCache.size >= BLOCK_CACHE_LIMIT) {
    const oldest = blockCache.keys().next().value;
    if (oldest !== undefined) blockCache.delete(oldest);
  }
  blockCache.set(token.raw, html);
  return html;
}

export interface MarkdownBlock {
  html: string;
  /** The source of a fenced or indented code block (for its copy button); null for other blocks. */
  code: string | null;
}

/**
 * Markdown to sanitized HTML, one string per top-level block (paragraph, list, code block…).
 * Raw HTML in the source is sanitized away; links open in a new window without an opener.
 * Code in a language whose grammar is not loaded yet comes back plain and starts the load;
 * `subscribeGrammars` tells when rendering again would highlight it.
 */
export function renderMarkdownBlocks(markdown: string): MarkdownBlock[] {
  return marked
    .lexer(markdown)
    .filter((token) => token.type !== 'space')
    .map((token) => ({ html: renderBlock(token), code: token.type === 'code' ? (token as Tokens.Code).text : null }));
}

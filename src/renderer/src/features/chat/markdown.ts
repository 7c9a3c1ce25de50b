import { Marked, type Token } from 'marked';
import hljs from 'highlight.js/lib/common';
import { sanitizeHtml } from '../../components/sanitizeHtml';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    code({ text, lang }) {
      const language = lang?.trim().split(/\s+/)[0];
      // Only named languages are highlighted: auto-detection is far too slow to redo every tick.
      const body =
        language && hljs.getLanguage(language)
          ? hljs.highlight(text, { language, ignoreIllegals: true }).value
          : escapeHtml(text);
      const langClass = language ? ` language-${escapeHtml(language)}` : '';
      return `<pre><code class="hljs${langClass}">${body}</code></pre>\n`;
    },
  },
});

/** Rendered blocks by their markdown source: a streaming answer re-renders only its last block. */
const blockCache = new Map<string, string>();
const BLOCK_CACHE_LIMIT = 2000;

function renderBlock(token: Token): string {
  const cached = blockCache.get(token.raw);
  if (cached !== undefined) return cached;
  const html = sanitizeHtml(marked.parser([token]));
  if (blockCache.size >= BLOCK_CACHE_LIMIT) {
    const oldest = blockCache.keys().next().value;
    if (oldest !== undefined) blockCache.delete(oldest);
  }
  blockCache.set(token.raw, html);
  return html;
}

/**
 * Markdown to sanitized HTML, one string per top-level block (paragraph, list, code block…).
 * Raw HTML in the source is sanitized away; links open in a new window without an opener.
 */
export function renderMarkdownBlocks(markdown: string): string[] {
  return marked
    .lexer(markdown)
    .filter((token) => token.type !== 'space')
    .map(renderBlock);
}

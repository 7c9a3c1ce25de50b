import { escapeHtml } from './escapeHtml';
import { loadOnDemand } from './onDemand';
import type { MathToken } from './mathSyntax';

/** Longer TeX is shown as its source: no answer needs such a formula, and KaTeX's time grows with it. */
export const MAX_TEX_LENGTH = 4000;

const katexRenderer = loadOnDemand(() => import('./katexRender'));

/** Rendered formulas by kind and TeX: a paragraph growing while it streams renders each formula once. */
const formulaCache = new Map<string, string>();
const FORMULA_CACHE_LIMIT = 1000;

/** A formula KaTeX could not draw, or one too long to try: its source, as written. */
const sourceOf = (token: MathToken) => `<code class="math-source">${escapeHtml(token.raw)}</code>`;

/**
 * HTML for a formula: KaTeX's, in a frame of its own when displayed (it scrolls sideways when wide,
 * so the keyboard can reach it). Null while KaTeX is loading: `subscribeOnDemand` says when it is
 * there.
 */
export function renderFormula(token: MathToken): string | null {
  if (token.text.length > MAX_TEX_LENGTH) return sourceOf(token);
  const key = `${token.display ? 'D' : 'I'}${token.text}`;
  const cached = formulaCache.get(key);
  if (cached !== undefined) return cached;
  const katex = katexRenderer();
  if (!katex) return null;
  const rendered = katex.texToHtml(token.text, token.display);
  const html = rendered === null ? sourceOf(token) : token.display ? `<span class="math-display" tabindex="0">${rendered}</span>` : rendered;
  if (formulaCache.size >= FORMULA_CACHE_LIMIT) formulaCache.delete(formulaCache.keys().next().value!);
  formulaCache.set(key, html);
  return html;
}

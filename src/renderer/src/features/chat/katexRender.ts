import katex, { type KatexOptions } from 'katex';
import 'katex/dist/katex.min.css';

/**
 * KaTeX for untrusted TeX (a model's answer): no command that makes links, classes, ids, styles or
 * raw HTML (`\href`, `\url`, `\htmlClass`…: `trust: false`), no size a formula chooses above 10 em
 * (`\rule`, `\kern`), at most 500 macro expansions (a `\def` bomb), and errors drawn in place, red,
 * instead of thrown. `strict: 'ignore'`: text such as Korean inside a formula is drawn without a
 * console warning. Its own chunk, with its stylesheet and fonts: loaded by the first answer with a
 * formula (math.ts).
 */
const OPTIONS: KatexOptions = {
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  maxSize: 10,
  maxExpand: 500,
  output: 'htmlAndMathml',
};

/**
 * KaTeX's MathML carries the TeX again in an `<annotation>`, which the sanitizer drops but whose text
 * it would keep inside the formula (a screen reader would read the TeX after the math). KaTeX writes
 * it escaped, so it holds no markup.
 */
const TEX_ANNOTATION = /<annotation encoding="application\/x-tex">[^<]*<\/annotation>/g;

/** `tex` as KaTeX HTML (with MathML for screen readers), or null when KaTeX gives up (a stack overflow on absurd nesting). */
export function texToHtml(tex: string, display: boolean): string | null {
  try {
    return katex.renderToString(tex, { ...OPTIONS, displayMode: display }).replace(TEX_ANNOTATION, '');
  } catch {
    return null;
  }
}

import type { TokenizerAndRendererExtension, Tokens } from 'marked';

/** A formula found in the markdown: its TeX and whether it is displayed on its own line. */
export interface MathToken extends Tokens.Generic {
  type: 'math' | 'mathBlock';
  raw: string;
  text: string;
  display: boolean;
}

/** Any character but a blank line: a formula never runs into the next paragraph. */
const NO_BLANK_LINE = String.raw`(?:(?!\n[ \t]*\n)[\s\S])`;

/**
 * A display formula as a block of its own: `$$…$$` or `\[…\]` starting a line (up to three spaces
 * in, like any markdown block) and nothing after it on its closing line. One still open (an answer
 * streaming in) is not a formula yet: it stays text until its closing delimiter arrives.
 */
const BLOCK = new RegExp(String.raw`^ {0,3}(?:\$\$(${NO_BLANK_LINE}+?)\$\$|\\\[(${NO_BLANK_LINE}+?)\\\])[ \t]*(?:\n+|$)`);
/** Where a line starts with `$$` or `\[`: a paragraph above it ends there. */
const BLOCK_START = /\n {0,3}(?:\$\$|\\\[)/;

/** `$$…$$` and `\[…\]` inside a paragraph: displayed, on their own line. */
const INLINE_DISPLAY = new RegExp(String.raw`^(?:\$\$(${NO_BLANK_LINE}+?)\$\$|\\\[(${NO_BLANK_LINE}+?)\\\])`);
/**
 * `$…$` the way pandoc reads it, so prices and shell variables stay text: a non-space right after
 * the opening `$`, a non-space right before the closing one, no digit right after it, no `$`
 * inside unless escaped ("$5 and $10", "$HOME and $PATH" are no formula; "$x^2$" is).
 */
const INLINE_DOLLAR = /^\$(?![\s$])((?:\\[\s\S]|[^\\$])+?)(?<![\s\\])\$(?!\d)/;
/** `\(…\)`. */
const INLINE_PAREN = new RegExp(String.raw`^\\\((${NO_BLANK_LINE}+?)\\\)`);
/** Where an inline formula may start, so plain text stops before it. */
const INLINE_START = /\$|\\[([]/;

const mathToken = (type: MathToken['type'], raw: string, tex: string, display: boolean): MathToken => ({ type, raw, text: tex.trim(), display });

/**
 * marked extensions that turn `$…$`, `\(…\)`, `$$…$$` and `\[…\]` into `math` and `mathBlock`
 * tokens (with their TeX in `text`), rendered by `renderMath`. Code spans and code blocks are
 * tokenized first, so a `$` in code is never a formula.
 */
export function mathExtensions(renderMath: (token: MathToken) => string): TokenizerAndRendererExtension[] {
  return [
    {
      name: 'mathBlock',
      level: 'block',
      start: (src) => {
        const match = BLOCK_START.exec(src);
        return match ? match.index + 1 : undefined;
      },
      tokenizer(src) {
        const match = BLOCK.exec(src);
        if (!match) return undefined;
        return mathToken('mathBlock', match[0], match[1] ?? match[2] ?? '', true);
      },
      renderer: (token) => renderMath(token as MathToken),
    },
    {
      name: 'math',
      level: 'inline',
      start: (src) => {
        const index = src.search(INLINE_START);
        return index === -1 ? undefined : index;
      },
      tokenizer(src) {
        const display = INLINE_DISPLAY.exec(src);
        if (display) return mathToken('math', display[0], display[1] ?? display[2] ?? '', true);
        // A `$$` that does not close (yet) is text, not the start of a `$…$` formula.
        if (src.startsWith('$$')) return { type: 'text', raw: '$$', text: '$$' };
        const inline = INLINE_DOLLAR.exec(src) ?? INLINE_PAREN.exec(src);
        if (!inline) return undefined;
        return mathToken('math', inline[0], inline[1] ?? '', false);
      },
      renderer: (token) => renderMath(token as MathToken),
    },
  ];
}

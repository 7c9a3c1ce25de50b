import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cssBreakpoints } from './cssBreakpoints';

const RENDERER = join(import.meta.dirname, '../src/renderer/src');

const mediaOf = (params: string) => {
  const rule = { params, error: (message: string) => new Error(message) };
  cssBreakpoints().AtRule.media(rule);
  return rule.params;
};

describe('breakpoints in CSS', () => {
  it('a media query names a breakpoint and gets its width in em, as the Mantine theme has it (16px = 1em)', () => {
    expect(mediaOf('(width < $mantine-breakpoint-sm)')).toBe('(width < 48em)');
    expect(mediaOf('(width >= $mantine-breakpoint-laptop) and (width < $mantine-breakpoint-md)')).toBe('(width >= 56.5625em) and (width < 65em)');
    expect(() => mediaOf('(width < $mantine-breakpoint-tablet)')).toThrow(/Unknown breakpoint tablet/);
  });

  it('no stylesheet of the renderer writes a width of its own in a media query', () => {
    const stylesheets = readdirSync(RENDERER, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.css'));
    expect(stylesheets).toContain(join('features', 'chat', 'chat.module.css'));
    const widths = stylesheets.flatMap((file) =>
      [...readFileSync(join(RENDERER, file), 'utf8').matchAll(/@media[^{]*\b(?:width|min-width|max-width)\b[^{]*\{/g)]
        .map(([query]) => query)
        .filter((query) => /\d(?:px|em|rem)/.test(query))
        .map((query) => `${file}: ${query}`),
    );
    expect(widths).toEqual([]);
  });
});

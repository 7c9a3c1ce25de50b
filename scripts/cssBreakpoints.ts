import { BREAKPOINTS_PX } from '../src/shared/domain/ui.ts';

const VARIABLE = /\$mantine-breakpoint-([a-z]+)/g;

/**
 * A PostCSS plugin for the renderer's CSS: `$mantine-breakpoint-<name>` in a media query (the
 * variable postcss-preset-mantine would give) becomes that breakpoint of BREAKPOINTS_PX in em, as
 * the Mantine theme has it, so CSS modules and the theme share one list of widths. Write
 * `@media (width < $mantine-breakpoint-sm)` for "below sm". An unknown name fails the build.
 */
export function cssBreakpoints() {
  return {
    postcssPlugin: 'css-breakpoints',
    AtRule: {
      media(atRule: { params: string; error(message: string): Error }) {
        atRule.params = atRule.params.replace(VARIABLE, (_match, name: string) => {
          const px = (BREAKPOINTS_PX as Record<string, number>)[name];
          if (px === undefined) throw atRule.error(`Unknown breakpoint ${name}; the breakpoints are ${Object.keys(BREAKPOINTS_PX).join(', ')}`);
          return `${px / 16}em`;
        });
      },
    },
  };
}

import { em, px, useMantineTheme, type MantineBreakpoint } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * True while the window is narrower than a breakpoint of the theme (Mantine's useMatches knows only
 * its five default keys). Read on the first render, so a layout never flashes its other form.
 */
export function useBelowBreakpoint(breakpoint: MantineBreakpoint): boolean {
  const theme = useMantineTheme();
  return useMediaQuery(`(max-width: ${em(Number(px(theme.breakpoints[breakpoint])) - 0.1)})`, false, { getInitialValueInEffect: false });
}

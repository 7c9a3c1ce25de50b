import { useMemo, type ReactNode } from 'react';
import {
  createTheme,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  em,
  MantineProvider,
  rem,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BREAKPOINTS_PX } from '../../shared/domain/ui';

type Breakpoint = keyof typeof BREAKPOINTS_PX;

// The theme's breakpoints are the spec's seven widths, two of them beyond Mantine's five names.
declare module '@mantine/core' {
  export interface MantineThemeSizesOverride {
    breakpoints: Record<Breakpoint, string>;
  }
}

/** The breakpoints in em (16px = 1em), as Mantine's media queries want them. */
const breakpoints = Object.fromEntries(Object.entries(BREAKPOINTS_PX).map(([name, width]) => [name, em(width)])) as Record<Breakpoint, string>;

/**
 * gray.6 is Mantine's secondary ("dimmed") text and placeholder colour, and at #868e96 reaches only
 * 3.3:1 on white. This grey, between the old gray.6 and gray.7, keeps the lighter look at 5.4:1 on
 * white and 4.8:1 on indigo.0 (WCAG AA), everywhere gray.6 is used.
 */
const gray = DEFAULT_THEME.colors.gray.map((shade, index) => (index === 6 ? '#646b73' : shade)) as unknown as MantineColorsTuple;

/**
 * Light variants (badges such as "Live", light buttons) write in shade 9 on shade 1; for bright
 * hues that is under 4.5:1 (teal: 4.3:1). On shade 0 (hover: shade 1) the palette passes except
 * orange, yellow and lime, which stay too bright for text: use red for warnings. Subtle buttons
 * ("Clear filters") write in shade 9 on nothing, and hovered on shade 2 (indigo: 4.1:1, red: 3.8:1):
 * their hover is shade 1 too (indigo: 5.5:1). A menu item's colour is a light variant, but Mantine
 * writes `color="red"` in shade 6 (3.3:1 on white) and takes the text from here only for a shade
 * named: a red menu item is `red.9` (5.5:1 on white, 4.5:1 on its hover).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const [color = '', shade] = (input.color ?? input.theme.primaryColor).split('.');
  if (!(color in input.theme.colors)) return colors;
  if (input.variant === 'light')
    return {
      ...colors,
      background: `var(--mantine-color-${color}-0)`,
      hover: `var(--mantine-color-${color}-1)`,
      ...(shade ? { color: `var(--mantine-color-${color}-${shade})` } : {}),
    };
  if (input.variant === 'subtle' && !shade) return { ...colors, hover: `var(--mantine-color-${color}-1)` };
  return colors;
};

/**
 * Base font size 14 (spec §9); the breakpoints of the spec in em (16px = 1em). Filled colours use
 * shade 8 so white text on them reaches 4.5:1 (indigo.6 was 4.3:1, red.8 is 4.5:1). Close buttons
 * of dialogs and toasts get their translated name here, once for every dialog.
 */
export function createAppTheme({ closeLabel }: { closeLabel: string }) {
  return createTheme({
    primaryColor: 'indigo',
    colors: { gray },
    variantColorResolver,
    primaryShade: { light: 8, dark: 8 },
    defaultRadius: 'md',
    // Latin system fonts, then the CJK fonts of the language on screen (global.css, --app-font-cjk): no font ships with the app.
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, var(--app-font-cjk), sans-serif',
    fontSizes: { xs: rem(12), sm: rem(13), md: rem(14), lg: rem(16), xl: rem(18) },
    headings: { fontWeight: '650' },
    breakpoints,
    respectReducedMotion: true,
    components: {
      Tooltip: { defaultProps: { withArrow: true, openDelay: 250 } },
      // Mantine puts a focusable placeholder first in an open menu (not a menu item, which axe refuses
      // as a serious violation); without it opening a menu focuses its first item, as menus should.
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
      Modal: { defaultProps: { centered: true, radius: 'lg', closeButtonProps: { 'aria-label': closeLabel } } },
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
    },
  });
}

/**
 * Field errors (message and the value in error) are red.6 by default, 3.3:1 on white; red.8 is 4.5:1
 * on white but 4.3:1 on the console's gray.0 page: red.9 is 5.2:1 there.
 */
const cssVariablesResolver: CSSVariablesResolver = () => ({ variables: {}, light: { '--mantine-color-error': 'var(--mantine-color-red-9)' }, dark: {} });

/** MantineProvider with the app theme in the language on screen. */
/**
 * `env="test"` is for component tests: Mantine then opens menus, popovers and dialogs without their
 * transitions, so what a test looks for does not depend on how busy the machine is.
 */
export function AppMantineProvider({ children, env }: { children: ReactNode; env?: 'test' }) {
  const { t } = useTranslation('common');
  const closeLabel = t('close');
  const theme = useMemo(() => createAppTheme({ closeLabel }), [closeLabel]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" env={env}>
      {children}
    </MantineProvider>
  );
}

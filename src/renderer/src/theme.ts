import { createTheme, rem } from '@mantine/core';

/** Base font size 14 (spec §9); the breakpoints of the spec in em (16px = 1em). */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, "Pretendard", "Apple SD Gothic Neo", "Noto Sans KR", "Noto Sans SC", "Noto Sans JP", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontSizes: { xs: rem(12), sm: rem(13), md: rem(14), lg: rem(16), xl: rem(18) },
  headings: { fontWeight: '650' },
  breakpoints: { xs: '29.6875em', sm: '48em', md: '65em', lg: '77.5em', xl: '90em' },
  components: {
    Tooltip: { defaultProps: { withArrow: true, openDelay: 250 } },
    Modal: { defaultProps: { centered: true, radius: 'lg' } },
  },
});

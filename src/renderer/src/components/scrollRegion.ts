import type { TableScrollContainerProps } from '@mantine/core';

/**
 * Props of a Table.ScrollContainer whose table may scroll sideways (on a phone) and may hold no
 * link or button: its scrolling box takes keyboard focus, so arrow keys scroll it (axe
 * scrollable-region-focusable), and it is a region named after the table.
 */
export function scrollRegionProps(label: string): Pick<TableScrollContainerProps, 'scrollAreaProps'> {
  return { scrollAreaProps: { viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } } };
}

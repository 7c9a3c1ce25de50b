/** Layout and timing of the interface (spec §9). */

/**
 * The spec's breakpoints (§9) in pixels, under the names the Mantine theme gives them: `phone` is
 * the smallest phone the layouts are drawn for, `sm` the drawer navigation's end, `laptop` where
 * the chat header has room for the chatbot's name and model details, `md` the Studio editor's two
 * columns.
 */
export const BREAKPOINTS_PX = { phone: 375, xs: 475, sm: 768, laptop: 905, md: 1040, lg: 1240, xl: 1440 } as const;
export const ANNOUNCEMENT_COLLAPSE_HEIGHT_PX = 250;
export const NAV_BAR_WIDTH_PX = 264;
export const SKELETON_MIN_DISPLAY_MS = 2000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX_VISIBLE = 3;
/** The copy button's "Copied" tooltip resets after this long. */
export const COPY_TOOLTIP_RESET_MS = 3000;
/** Search inputs wait this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 300;

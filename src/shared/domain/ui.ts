/** Layout and timing of the interface (spec §9). */
export const ANNOUNCEMENT_COLLAPSE_HEIGHT_PX = 250;
export const NAV_BAR_WIDTH_PX = 264;
export const SKELETON_MIN_DISPLAY_MS = 2000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX_VISIBLE = 3;
/** The copy button's "Copied" tooltip resets after this long. */
export const COPY_TOOLTIP_RESET_MS = 3000;
/** Search inputs wait this long after the last key. */
export const SEARCH_DEBOUNCE_MS = 300;

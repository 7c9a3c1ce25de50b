/** Layout and timing of the interface (spec §9). */
export const ANNOUNCEMENT_COLLAPSE_HEIGHT_PX = 250;
export const NAV_BAR_WIDTH_PX = 264;
export const SKELETON_MIN_DISPLAY_MS = 2000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX_VISIBLE = 3;

/** Id of the page's main landmark: the skip link's target and where focus goes when nothing else fits. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * Moves focus to the main landmark (it carries tabIndex -1, so it takes focus without becoming a
 * Tab stop). Used after a dialog closes whose trigger is gone, so focus never falls to <body>.
 */
export function focusMainContent(): void {
  document.getElementById(MAIN_CONTENT_ID)?.focus();
}

/** Focuses `target` when there is one, the main landmark otherwise. */
export function focusOrMain(target: HTMLElement | null | undefined): void {
  if (target?.isConnected) target.focus();
  else focusMainContent();
}

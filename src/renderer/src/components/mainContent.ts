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

/** Id of the chat's message box (one per page). */
export const MESSAGE_BOX_ID = 'message-box';

/**
 * Focuses the page's message box when it has an enabled one, the main landmark otherwise: where a
 * dialog that opened by itself (the announcement popup) hands focus on closing.
 */
export function focusMessageBoxOrMain(): void {
  const box = document.getElementById(MESSAGE_BOX_ID);
  if (box instanceof HTMLTextAreaElement && !box.disabled) box.focus();
  else focusMainContent();
}

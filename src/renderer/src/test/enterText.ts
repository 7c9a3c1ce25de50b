import type { UserEvent } from '@testing-library/user-event';

/**
 * Puts text in a field as a paste does: focus, then one change. Typing it key by key renders the
 * whole form once per character (most of the time of the form tests); use `user.type` where the
 * keys themselves are what a test checks (a mask, a shortcut). See docs/decisions/0074-end-to-end-cpu.md.
 */
export async function enterText(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}

/**
 * Puts text on the clipboard. The asynchronous Clipboard API first; where it is refused (no
 * permission, as in the desktop window that grants none, or a page without focus) the older
 * copy command on a hidden text area, which needs only the click that started it. Rejects when
 * both fail, so the caller can say so.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall through to the copy command.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } finally {
    area.remove();
    focused?.focus();
  }
  if (!copied) throw new Error('The clipboard refused the text.');
}

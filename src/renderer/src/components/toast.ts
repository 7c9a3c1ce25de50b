import { notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '../../../shared/domain/ui';

export type ToastKind = 'success' | 'error' | 'info';

const COLORS: Record<ToastKind, string> = { success: 'teal', error: 'red', info: 'blue' };

/** Ids of the toasts on screen, oldest first. */
const visible: string[] = [];

function forget(id: string): void {
  const index = visible.indexOf(id);
  if (index >= 0) visible.splice(index, 1);
}

/**
 * Shows a toast (spec §8): 5000 ms, closable, at the top. At most three are visible; a fourth
 * closes the oldest instead of waiting in a queue.
 */
export function showToast(kind: ToastKind, message: string, title?: string): string {
  while (visible.length >= TOAST_MAX_VISIBLE) {
    const oldest = visible.shift();
    if (oldest) notifications.hide(oldest);
  }
  const id = notifications.show({
    color: COLORS[kind],
    title,
    message,
    autoClose: TOAST_DURATION_MS,
    withCloseButton: true,
    onClose: () => forget(id),
  });
  visible.push(id);
  return id;
}

import { notifications, type NotificationsProps } from '@mantine/notifications';
import classes from './toast.module.css';
import type { CSSProperties } from 'react';
import { NAV_BAR_WIDTH_PX, TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '../../../shared/domain/ui';

export type ToastKind = 'success' | 'error' | 'info';

const COLORS: Record<ToastKind, string> = { success: 'teal', error: 'red', info: 'blue' };

/**
 * Errors interrupt the screen reader (alert); success and info wait for it to finish (status,
 * polite), so a confirmation never cuts off what the user was hearing.
 */
const ROLES: Record<ToastKind, 'alert' | 'status'> = { success: 'status', error: 'alert', info: 'status' };

/**
 * Where toasts appear: at the top as the spec asks, centred below the header, where they cover the
 * page's title rather than a control (toast.module.css). Beside the side navigation they are
 * centred over the page.
 */
export const TOAST_VIEWPORT: Pick<NotificationsProps, 'position' | 'containerWidth' | 'classNames' | 'style'> = {
  position: 'top-center',
  containerWidth: 400,
  classNames: { root: classes.viewport },
  style: { '--toast-nav-width': `${NAV_BAR_WIDTH_PX}px` } as CSSProperties,
};

/** Ids of the toasts on screen, oldest first. */
const visible: string[] = [];

function forget(id: string): void {
  const index = visible.indexOf(id);
  if (index >= 0) visible.splice(index, 1);
}

/**
 * Shows a toast (spec §8): 5000 ms, closable, at the top (TOAST_VIEWPORT). At most three are visible; a fourth
 * closes the oldest instead of waiting in a queue.
 */
export function showToast(kind: ToastKind, message: string, title?: string): string {
  while (visible.length >= TOAST_MAX_VISIBLE) {
    const oldest = visible.shift();
    if (oldest) notifications.hide(oldest);
  }
  const id = notifications.show({
    color: COLORS[kind],
    role: ROLES[kind],
    title,
    message,
    autoClose: TOAST_DURATION_MS,
    withCloseButton: true,
    onClose: () => forget(id),
  });
  visible.push(id);
  return id;
}

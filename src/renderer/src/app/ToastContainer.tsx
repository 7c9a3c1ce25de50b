import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import { TOAST_VIEWPORT } from '../components/toast';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '../../../shared/domain/ui';

/**
 * Where toasts appear (spec §8). main.tsx loads it after the first screen: its transitions are not
 * needed to sign in, and toasts raised before it mounts wait in the notifications store.
 */
export default function ToastContainer() {
  return <Notifications {...TOAST_VIEWPORT} autoClose={TOAST_DURATION_MS} limit={TOAST_MAX_VISIBLE} zIndex={1000} />;
}

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api';
import { errorKeyOf } from '../api/errorMessages';
import { showToast } from './toast';

/**
 * Shows a toast when a query fails: the screen's own message for the statuses spec §8 names for
 * it (`specific`, status → full i18n key), the generic status message otherwise. A 401 gets none:
 * it only reaches a query after the refresh failed, and the ended session already has its toast.
 */
export function useErrorToast(error: unknown, specific: Record<number, string> = {}): void {
  const { t } = useTranslation();
  const signedOut = isApiError(error) && error.status === 401;
  const key = error && !signedOut ? (isApiError(error) && specific[error.status]) || errorKeyOf(error) : null;
  useEffect(() => {
    if (key) showToast('error', t(key));
  }, [error, key, t]);
}

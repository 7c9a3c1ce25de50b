import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/apiError';
import type { Endpoint } from '../../../shared/api';
import { errorMessageKey } from '../api/errorMessages';
import { showToast } from './toast';

/**
 * Shows a toast when a query of `endpoint` fails, with its message from the error catalogue (the
 * endpoint's own rows of spec §8, the generic status message otherwise). A 401 gets none:
 * it only reaches a query after the refresh failed, and the ended session already has its toast.
 */
export function useErrorToast(error: unknown, endpoint?: Endpoint): void {
  const { t } = useTranslation();
  const signedOut = isApiError(error) && error.status === 401;
  const key = error && !signedOut ? errorMessageKey(error, endpoint) : null;
  useEffect(() => {
    if (key) showToast('error', t(key));
  }, [error, key, t]);
}

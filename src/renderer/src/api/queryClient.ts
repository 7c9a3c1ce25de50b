import { MutationCache, QueryCache, QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { isApiError } from '../../../shared/api/apiError';
import type { EndpointMeta } from './endpointHooks';
import { errorText } from './errorMessages';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: EndpointMeta;
    mutationMeta: EndpointMeta;
  }
}

/**
 * The one place a failed call's toast is shown (spec §8): the endpoint's message from the error
 * catalogue, unless the call opted out (`errorToast`, see endpointHooks.ts). Toasts arrive with the
 * first lazy screen (main.tsx), so they are imported when the first failure needs one.
 */
function toastFailure(error: unknown, meta: EndpointMeta | undefined): void {
  const errorToast = meta?.errorToast;
  if (!errorToast) return;
  const { when, overrides } = errorToast === true ? {} : errorToast;
  if (when && !when(error)) return;
  const message = errorText(error, meta.endpoint, overrides);
  void import('../components/toast').then(({ showToast }) => showToast('error', message));
}

/**
 * The app's query client (main.tsx; tests pass their own `defaultOptions`). A failed load has no
 * toast at 401: it only reaches a query after the refresh failed, and the ended session has its own.
 */
export function createQueryClient(config: Omit<QueryClientConfig, 'queryCache' | 'mutationCache'> = {}): QueryClient {
  return new QueryClient({
    ...config,
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!(isApiError(error) && error.status === 401)) toastFailure(error, query.meta);
      },
    }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => toastFailure(error, mutation.meta) }),
  });
}

import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import '@mantine/core/styles.css';
import './global.css';
import { resolveLanguage } from '../../shared/domain/language';
// The first screen imports contract modules one by one: the api index would bring every screen's contract.
import { isApiError } from '../../shared/api/apiError';
import { createQueryClient } from './api/queryClient';
import { initI18n, loadLanguage } from './i18n';
import { useUserSession } from './stores/userSession';
import { createAppRouter } from './router';
import { AppMantineProvider } from './theme';

const language = resolveLanguage(useUserSession.getState().language, navigator.language);
initI18n(language);

const queryClient = createQueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors will not fix themselves; only network and server failures are retried once.
      retry: (failureCount, error) => failureCount < 1 && (!isApiError(error) || error.status === 0 || error.status >= 500),
    },
  },
});

const router = createAppRouter();
const ToastContainer = lazy(() => import('./app/ToastContainer'));

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppMantineProvider>
        <Suspense>
          <ToastContainer />
        </Suspense>
        <QueryClientProvider client={queryClient}>
          {/* Navigations render at once, not in a transition: a screen never acts on a location the router has left. */}
          <RouterProvider router={router} useTransitions={false} />
        </QueryClientProvider>
      </AppMantineProvider>
    </StrictMode>,
  );

// Strings other than the first screen's English arrive in their own chunks: show it in the right language.
void loadLanguage().finally(render);

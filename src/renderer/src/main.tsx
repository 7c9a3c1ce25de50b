import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/tiptap/styles.css';
import './global.css';
import { resolveLanguage } from '../../shared/domain/language';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '../../shared/domain/constants';
import { isApiError } from '../../shared/api';
import { initI18n } from './i18n';
import { useUserSession } from './stores/userSession';
import { createAppRouter } from './router';
import { TOAST_VIEWPORT } from './components/toast';
import { AppMantineProvider } from './theme';

initI18n(resolveLanguage(useUserSession.getState().language, navigator.language));

const queryClient = new QueryClient({
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppMantineProvider>
      <Notifications {...TOAST_VIEWPORT} autoClose={TOAST_DURATION_MS} limit={TOAST_MAX_VISIBLE} zIndex={1000} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppMantineProvider>
  </StrictMode>,
);

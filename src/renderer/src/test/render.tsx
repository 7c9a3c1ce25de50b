import type { ReactElement } from 'react';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from '../api/queryClient';
import { initI18n } from '../i18n';
import { AppMantineProvider } from '../theme';

/**
 * Renders a screen with the app's providers at `route` (matched by `path`), English strings and
 * a fresh query client (the app's, with its error toasts). Returns the router so tests can read where the user ended up.
 */
export function renderScreen(ui: ReactElement, { route = '/', path = '*' }: { route?: string; path?: string } = {}) {
  initI18n('en');
  const queryClient = createQueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path, element: ui },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    { initialEntries: [route] },
  );
  const view = render(
    <AppMantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AppMantineProvider>,
  );
  return { ...view, router, queryClient };
}

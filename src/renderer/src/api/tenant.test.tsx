import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../platform';
import { installFakeApi, TEST_API_BASE } from '../test/fakeApi';
import { useTenant } from './tenant';

afterEach(() => setPlatformForTests(null));

function renderUseTenant() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useTenant(), { wrapper });
}

const tenant = { subdomain: 'demo', tenant_name: 'Demo', plan: { is_low_llm_free: true } };

describe('useTenant', () => {
  it('makes a server-relative logo absolute against the API base (the desktop page origin is app://bundle)', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json({ ...tenant, logo_url: '/api/v1/assets/demo-logo.svg' }) });
    const { result } = renderUseTenant();
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data?.logo_url).toBe(new URL('/api/v1/assets/demo-logo.svg', TEST_API_BASE).href);
  });

  it('keeps an absolute logo URL as it is', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json({ ...tenant, logo_url: 'https://cdn.example/logo.png' }) });
    const { result } = renderUseTenant();
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data?.logo_url).toBe('https://cdn.example/logo.png');
  });

  it('keeps a missing logo missing', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json({ ...tenant, logo_url: null }) });
    const { result } = renderUseTenant();
    await waitFor(() => expect(result.current.data).toBeDefined());
    expect(result.current.data?.logo_url).toBeNull();
  });
});

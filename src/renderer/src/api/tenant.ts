import { useQuery } from '@tanstack/react-query';
import { tenantsApi } from '../../../shared/api';
import { callEndpoint, resolveServerUrl } from './client';
import { queryKeys } from './queryKeys';

/** Tenant branding and plan flags; public, so the sign-in page can show them. */
export function useTenant() {
  return useQuery({
    queryKey: queryKeys.tenant,
    queryFn: async () => {
      const tenant = await callEndpoint(tenantsApi.getTenant);
      return { ...tenant, logo_url: tenant.logo_url && (await resolveServerUrl(tenant.logo_url)) };
    },
    staleTime: 5 * 60_000,
  });
}

import { useQuery } from '@tanstack/react-query';
import * as tenantsApi from '../../../shared/api/tenants';
import { PASSWORD_MIN } from '../../../shared/domain/account';
import { callEndpoint, resolveServerUrl } from './client';
import { endpointKey } from './endpointHooks';

/** The tenant of the configured server: also how the desktop server setup checks it is reachable. */
export function getTenant() {
  return callEndpoint(tenantsApi.getTenant);
}

/**
 * The shortest new password the tenant accepts (its admin may raise spec §5's 8): the sign-up, reset,
 * change and invitation forms show and check it; the server checks it again, with the common-password list.
 */
export function usePasswordMinLength(): number {
  return useTenant().data?.password_min_length ?? PASSWORD_MIN;
}

/**
 * Tenant branding and plan flags; public, so the sign-in page can show them. Cached under the
 * endpoint's key with the logo made absolute (the desktop renderer is not served from the server).
 */
export function useTenant() {
  return useQuery({
    queryKey: endpointKey(tenantsApi.getTenant),
    queryFn: async () => {
      const tenant = await getTenant();
      return { ...tenant, logo_url: tenant.logo_url && (await resolveServerUrl(tenant.logo_url)) };
    },
    staleTime: 5 * 60_000,
  });
}

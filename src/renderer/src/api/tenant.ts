import { useQuery } from '@tanstack/react-query';
import { tenantsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** Tenant branding and plan flags; public, so the sign-in page can show them. */
export function useTenant() {
  return useQuery({
    queryKey: queryKeys.tenant,
    queryFn: () => callEndpoint(tenantsApi.getTenant),
    staleTime: 5 * 60_000,
  });
}

import { useQuery } from '@tanstack/react-query';
import { getTenantMembership } from '../../../shared/api/tenantMembership';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The workspace's plan, seats and pending plan change (My page). */
export function useTenantMembership() {
  return useQuery({ queryKey: queryKeys.tenantMembership, queryFn: () => callEndpoint(getTenantMembership) });
}

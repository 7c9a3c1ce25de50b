import type { QueryClient } from '@tanstack/react-query';
import { creditsApi, membersApi } from '../../../shared/api';
import { invalidateEndpoints, useEndpointQuery } from './endpointHooks';

/** This month's usage of the signed-in member (the chat's banner, the indicator, the credits page); nothing until signed in. */
export function useMemberUsage(memberId: number | undefined) {
  return useEndpointQuery(creditsApi.getMemberUsage, { params: { id: memberId ?? 0 } }, { enabled: memberId !== undefined });
}

/** After a send was charged or refused, or a plan changed: the usage figures and the credit check (New chat) read again. */
export function refreshCredits(queryClient: QueryClient): Promise<void> {
  return invalidateEndpoints(queryClient, [creditsApi.getMemberUsage, membersApi.getCreditCheck]);
}

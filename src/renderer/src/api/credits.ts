import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { creditsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export function useMemberUsage(memberId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.memberUsage(memberId ?? 0),
    queryFn: () => callEndpoint(creditsApi.getMemberUsage, { params: { id: memberId ?? 0 } }),
    enabled: memberId !== undefined,
  });
}

/** After a send was charged or refused: the usage figures and the credit check (New chat) read again. */
export function refreshCredits(queryClient: QueryClient, memberId: number): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.memberUsage(memberId) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.creditCheck(memberId) });
}

/** Spec §3 Credit entries of the member's tenant pool. */
export function useCreditEntries(page: number, size: number) {
  return useQuery({
    queryKey: queryKeys.creditEntries(page, size),
    queryFn: () => callEndpoint(creditsApi.listCredits, { query: { page, size } }),
    placeholderData: keepPreviousData,
  });
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { groupRequestsApi, type MemberGroupsState } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export function useMemberGroups(memberId: number) {
  return useQuery({ queryKey: queryKeys.myGroups(memberId), queryFn: () => callEndpoint(groupRequestsApi.getMemberGroups, { params: { id: memberId } }) });
}

/** The request and its withdrawal answer the new state, which replaces the cached one. */
export function useGroupRequestActions(memberId: number) {
  const queryClient = useQueryClient();
  const store = (state: MemberGroupsState) => queryClient.setQueryData(queryKeys.myGroups(memberId), state);
  return {
    request: async (choice: { default_member_group_id: number; member_group_ids: number[] }) =>
      store(await callEndpoint(groupRequestsApi.requestGroupChange, { params: { id: memberId }, body: choice })),
    withdraw: async () => store(await callEndpoint(groupRequestsApi.withdrawGroupChange, { params: { id: memberId } })),
  };
}

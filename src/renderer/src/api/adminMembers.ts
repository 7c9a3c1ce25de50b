import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminMemberRequestsApi, adminMembersApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export type AdminMemberQuery = z.input<typeof adminMembersApi.adminMemberListQuerySchema>;
export type AdminMemberPatch = z.input<typeof adminMembersApi.adminMemberPatchSchema>;
export type MemberRequestQuery = z.input<typeof adminMemberRequestsApi.memberRequestListQuerySchema>;

export function useAdminMembers(query: AdminMemberQuery) {
  return useQuery({
    queryKey: queryKeys.adminMembers(query),
    queryFn: () => callEndpoint(adminMembersApi.listAdminMembers, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminMember(id: number | null) {
  return useQuery({
    queryKey: queryKeys.adminMember(id ?? 0),
    queryFn: () => callEndpoint(adminMembersApi.getAdminMember, { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}

export const updateAdminMember = (id: number, body: AdminMemberPatch) => callEndpoint(adminMembersApi.patchAdminMember, { params: { id }, body });
export const deleteAdminMember = (id: number) => callEndpoint(adminMembersApi.deleteAdminMember, { params: { id } });
export const bulkDeleteMembers = (ids: number[]) => callEndpoint(adminMembersApi.bulkDeleteMembers, { body: { member_ids: ids } });
export const bulkSetCreditQuota = (ids: number[], creditQuota: number | null) =>
  callEndpoint(adminMembersApi.bulkPatchMembers, { body: { member_ids: ids, credit_quota: creditQuota } });

/** Deactivates the approved members among `ids`, or reactivates the deactivated ones. */
export const bulkSetMemberStatus = (ids: number[], memberStatus: 'approved' | 'deactivated') =>
  callEndpoint(adminMembersApi.bulkPatchMembers, { body: { member_ids: ids, member_status: memberStatus } });

export function useMemberRequests(query: MemberRequestQuery) {
  return useQuery({
    queryKey: queryKeys.memberRequests(query),
    queryFn: () => callEndpoint(adminMemberRequestsApi.listMemberRequests, { query }),
    placeholderData: keepPreviousData,
  });
}

/** One request or several (bulk): the count decided. */
export async function decideMemberRequests(ids: number[], approve: boolean, reason?: string): Promise<number> {
  const decision = { approve, ...(reason ? { reason } : {}) };
  if (ids.length === 1) {
    await callEndpoint(adminMemberRequestsApi.processPendingRequest, { params: { id: ids[0]! }, body: decision });
    return 1;
  }
  return (await callEndpoint(adminMemberRequestsApi.bulkProcessPendingRequests, { body: { member_ids: ids, ...decision } })).processed;
}

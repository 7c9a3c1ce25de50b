import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminMemberGroupsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export type GroupPatch = z.input<typeof adminMemberGroupsApi.patchMemberGroupBodySchema>;

export function useAdminGroups(page: number, size: number, search: string) {
  return useQuery({
    queryKey: queryKeys.adminGroups(page, size, search),
    queryFn: () => callEndpoint(adminMemberGroupsApi.listAdminMemberGroups, { query: { page, size, ...(search ? { search_term: search } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

/** Every group of the tenant (the invite dialog's group picker): groups are few. */
export function useAllAdminGroups() {
  return useAdminGroups(1, 100, '');
}

export function useGroupUsage() {
  return useQuery({ queryKey: queryKeys.adminGroupUsage, queryFn: () => callEndpoint(adminMemberGroupsApi.memberGroupUsage) });
}

export function useGroupMembers(id: number, page: number) {
  return useQuery({
    queryKey: queryKeys.adminGroupMembers(id, page),
    queryFn: () => callEndpoint(adminMemberGroupsApi.listMemberGroupMembers, { params: { id }, query: { page, size: 10 } }),
    placeholderData: keepPreviousData,
  });
}

export const createGroup = (body: { ko_name: string; en_name: string }) => callEndpoint(adminMemberGroupsApi.createMemberGroup, { body });
export const patchGroup = (id: number, body: GroupPatch) => callEndpoint(adminMemberGroupsApi.patchMemberGroup, { params: { id }, body });
export const deleteGroup = (id: number) => callEndpoint(adminMemberGroupsApi.deleteMemberGroup, { params: { id } });
export const removeGroupMember = (id: number, memberId: number) => callEndpoint(adminMemberGroupsApi.removeMemberGroupMember, { params: { id, memberId } });

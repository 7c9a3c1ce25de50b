import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminInvitationsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export type AdminInvitationQuery = z.input<NonNullable<typeof adminInvitationsApi.listAdminInvitations.query>>;
export type InviteRow = z.input<NonNullable<typeof adminInvitationsApi.bulkInvite.body>>['members'][number];

export function useAdminInvitations(query: AdminInvitationQuery) {
  return useQuery({
    queryKey: queryKeys.adminInvitations(query),
    queryFn: () => callEndpoint(adminInvitationsApi.listAdminInvitations, { query }),
    placeholderData: keepPreviousData,
  });
}

export const inviteMembers = (members: InviteRow[]) => callEndpoint(adminInvitationsApi.bulkInvite, { body: { members } });
export const deleteInvitations = (ids: number[]) => callEndpoint(adminInvitationsApi.bulkDeleteInvitations, { body: { invitation_ids: ids } });

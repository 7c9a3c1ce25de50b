import { useQuery } from '@tanstack/react-query';
import { invitationsApi, type AcceptInvitationBody } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The pending invitation of the mail's link (`enabled` waits for the link's workspace to be set). */
export function useInvitation(hash: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.invitation(hash), queryFn: () => callEndpoint(invitationsApi.verifyInvitation, { params: { hash } }), enabled, retry: false });
}

export const acceptInvitation = (hash: string, body: AcceptInvitationBody) => callEndpoint(invitationsApi.acceptInvitation, { params: { hash }, body });

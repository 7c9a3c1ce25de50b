import { useQuery } from '@tanstack/react-query';
import * as membersApi from '../../../shared/api/members';
import type { SupportedLanguage } from '../../../shared/domain/language';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export function useCreditCheck(memberId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.creditCheck(memberId ?? 0),
    queryFn: () => callEndpoint(membersApi.getCreditCheck, { params: { id: memberId ?? 0 } }),
    enabled: memberId !== undefined,
  });
}

/** The member as the server has it now (My page: the custom fields an admin may have added since sign-in). */
export function useMember(memberId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.member(memberId ?? 0),
    queryFn: () => callEndpoint(membersApi.getMember, { params: { id: memberId ?? 0 } }),
    enabled: memberId !== undefined,
  });
}

export function saveMemberLanguage(memberId: number, language: SupportedLanguage) {
  return callEndpoint(membersApi.patchMember, { params: { id: memberId }, body: { language } });
}

export function saveMemberName(memberId: number, name: string) {
  return callEndpoint(membersApi.patchMember, { params: { id: memberId }, body: { name } });
}

/** Only the editable fields are sent (spec §5 rules; ARCHITECTURE "Tenant settings"). */
export function saveMemberCustomFields(memberId: number, customFields: { custom_field_id: number; value: string }[]) {
  return callEndpoint(membersApi.patchMember, { params: { id: memberId }, body: { custom_fields: customFields } });
}

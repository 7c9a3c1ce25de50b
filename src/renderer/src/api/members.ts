import * as membersApi from '../../../shared/api/members';
import { useEndpointQuery } from './endpointHooks';

export function useCreditCheck(memberId: number | undefined) {
  return useEndpointQuery(membersApi.getCreditCheck, { params: { id: memberId ?? 0 } }, { enabled: memberId !== undefined });
}

import { adminMemberGroupsApi } from '../../../shared/api';
import { useEndpointQuery } from './endpointHooks';

/** Every group of the tenant (the group pickers of invitations and default chatbots): groups are few. */
export function useAllAdminGroups() {
  return useEndpointQuery(adminMemberGroupsApi.listAdminMemberGroups, { query: { page: 1, size: 100 } });
}

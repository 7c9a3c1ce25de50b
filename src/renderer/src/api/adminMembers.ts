import { adminMembersApi } from '../../../shared/api';

/** What a change of members makes stale: the console's list and the open member (the requests screen changes members too). */
export const MEMBER_QUERIES = [adminMembersApi.listAdminMembers, adminMembersApi.getAdminMember];

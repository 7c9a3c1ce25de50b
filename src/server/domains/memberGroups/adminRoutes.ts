import {
  createMemberGroup,
  deleteMemberGroup,
  getAdminMemberGroup,
  listAdminMemberGroups,
  listMemberGroupMembers,
  memberGroupUsage,
  patchMemberGroup,
  removeMemberGroupMember,
} from '../../../shared/api/admin/memberGroups';
import * as groups from './admin';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The admin console's member groups (spec §7 admin member groups). */
export const adminMemberGroupRoutes = domainRoutes('memberGroups.admin', (app, { db }) => {
  registerEndpoint(app, listAdminMemberGroups, async ({ tenant, query }) => groups.listGroups(db, tenant.id, query));
  registerEndpoint(app, memberGroupUsage, async ({ tenant }) => groups.groupUsage(db, tenant.id));
  registerEndpoint(app, createMemberGroup, async ({ body, requireMember }) => groups.createGroup(db, requireMember(), body));
  registerEndpoint(app, getAdminMemberGroup, async ({ tenant, params }) => groups.getGroup(db, tenant.id, params.id));
  registerEndpoint(app, patchMemberGroup, async ({ params, body, requireMember }) => groups.patchGroup(db, requireMember(), params.id, body));
  registerEndpoint(app, deleteMemberGroup, async ({ params, requireMember }) => groups.deleteGroup(db, requireMember(), params.id));
  registerEndpoint(app, listMemberGroupMembers, async ({ tenant, params, query }) => groups.listGroupMembers(db, tenant.id, params.id, query));
  registerEndpoint(app, removeMemberGroupMember, async ({ params, requireMember }) =>
    groups.removeGroupMember(db, requireMember(), params.id, params.memberId),
  );
});

import type { FastifyInstance } from 'fastify';
import { getCreditCheck, getMember, patchMember } from '../../shared/api/members';
import type { Database } from '../db/client';
import type { AuthService } from '../services/auth';
import { bulkPatchMembers } from '../../shared/api/admin/members';
import { getMemberUsage } from '../../shared/api/credits';
import { setCreditQuota } from '../services/adminMembers';
import { memberUsage } from '../services/creditUsage';
import * as members from '../services/members';
import { getMemberGroups, requestGroupChange, withdrawGroupChange } from '../../shared/api/groupRequests';
import * as groupRequests from '../services/groupRequests';
import { registerEndpoint } from './endpointRoute';

export function registerMemberRoutes(app: FastifyInstance, db: Database, auth: AuthService): void {
  registerEndpoint(app, getMember, async ({ params, requireMember }) => members.getMember(db, requireMember(), params.id));
  registerEndpoint(app, patchMember, async ({ params, body, requireMember }) => {
    const requester = requireMember();
    const updated = await members.updateOwnMember(db, requester, params.id, body);
    auth.forgetMember(requester);
    return updated;
  });
  registerEndpoint(app, getCreditCheck, async ({ params, requireMember }) => members.getCreditCheck(db, requireMember(), params.id));
  registerEndpoint(app, getMemberUsage, async ({ params, requireMember }) => memberUsage(db, await members.readableMember(db, requireMember(), params.id)));
  registerEndpoint(app, getMemberGroups, async ({ tenant, params, requireMember }) => groupRequests.memberGroupsState(db, tenant, requireMember(), params.id));
  registerEndpoint(app, requestGroupChange, async ({ tenant, params, body, requireMember }) => {
    const requester = requireMember();
    const state = await groupRequests.requestGroupChange(db, tenant, requester, params.id, body);
    // An immediate change moves the member's default group, which this process caches.
    auth.forgetMember(requester);
    return state;
  });
  registerEndpoint(app, withdrawGroupChange, async ({ tenant, params, requireMember }) => groupRequests.withdrawGroupChange(db, tenant, requireMember(), params.id));
  registerEndpoint(app, bulkPatchMembers, async ({ tenant, body }) => {
    const ids = await setCreditQuota(db, tenant.id, body.member_ids, body.credit_quota);
    // The member cache holds the quota a send is checked against: this process sees the change at once.
    for (const id of ids) auth.forgetMember({ tenantId: tenant.id, id });
    return { updated: ids.length };
  });
}

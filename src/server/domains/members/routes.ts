import { getCreditCheck, getMember, patchMember } from '../../../shared/api/members';
import { getMemberUsage } from '../../../shared/api/credits';
import { memberUsage } from '../credits/usage';
import * as members from './service';
import { getMemberGroups, requestGroupChange, withdrawGroupChange } from '../../../shared/api/groupRequests';
import * as groupRequests from '../memberGroups/requests';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const memberRoutes = domainRoutes('members', (app, { db, auth }) => {
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
  registerEndpoint(app, withdrawGroupChange, async ({ tenant, params, requireMember }) =>
    groupRequests.withdrawGroupChange(db, tenant, requireMember(), params.id),
  );
});

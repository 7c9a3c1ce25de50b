import { bulkDeleteInvitations, bulkInvite, listAdminInvitations } from '../../../shared/api/admin/invitations';
import { acceptInvitation, verifyInvitation } from '../../../shared/api/invitations';
import * as invitations from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Invitations: the admin's bulk invite and list, and the invitee's accept page (spec §7). */
export const invitationRoutes = domainRoutes('invitations', (app, deps) => {
  const ipLimit = deps.config.SIGN_IN_RATE_LIMIT;
  const { db } = deps;
  registerEndpoint(app, listAdminInvitations, async ({ tenant, query }) => invitations.listInvitations(db, tenant, query));
  registerEndpoint(app, bulkInvite, async ({ tenant, body, requireMember }) => invitations.inviteMembers(deps, tenant, requireMember(), body.members));
  registerEndpoint(app, bulkDeleteInvitations, async ({ tenant, body, requireMember }) =>
    invitations.deleteInvitations(db, tenant, requireMember(), body.invitation_ids),
  );
  registerEndpoint(app, verifyInvitation, async ({ tenant, params }) => invitations.verifyInvitation(db, tenant, params.hash));
  // Guessing temporary passwords is limited per invitation (service) and per client (here).
  registerEndpoint(app, acceptInvitation, async ({ tenant, params, body }) => invitations.acceptInvitation(deps, tenant, params.hash, body), {
    rateLimit: { name: 'invitation-accept', limit: ipLimit, windowMs: 60_000 },
  });
});

import { bulkDeleteInvitations, bulkInvite, listAdminInvitations } from '../../../shared/api/admin/invitations';
import { acceptInvitation, verifyInvitation } from '../../../shared/api/invitations';
import * as invitations from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';
import { signupDeps } from '../signup/service';

/** Invitations: the admin's bulk invite and list, and the invitee's accept page (spec §7). */
export const invitationRoutes = domainRoutes('invitations', (app, container) => {
  const { config } = container;
  const deps: invitations.InvitationDeps = { ...signupDeps(container), limiter: container.limiter, links: container.links, attemptLimit: config.SIGN_IN_EMAIL_RATE_LIMIT, windowMs: config.AUTH_RATE_WINDOW_SECONDS * 1000 };
  const ipLimit = config.SIGN_IN_RATE_LIMIT;
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

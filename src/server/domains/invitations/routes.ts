import type { FastifyInstance } from 'fastify';
import { bulkDeleteInvitations, bulkInvite, listAdminInvitations } from '../../../shared/api/admin/invitations';
import { acceptInvitation, verifyInvitation } from '../../../shared/api/invitations';
import * as invitations from './service';
import { registerEndpoint } from '../../routes/endpointRoute';

/** Invitations: the admin's bulk invite and list, and the invitee's accept page (spec §7). */
export function registerInvitationRoutes(app: FastifyInstance, deps: invitations.InvitationDeps, ipLimit: number): void {
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
}

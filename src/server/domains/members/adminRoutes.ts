import { bulkProcessPendingRequests, listMemberRequests, processPendingRequest } from '../../../shared/api/admin/memberRequests';
import { bulkDeleteMembers, bulkPatchMembers, deleteAdminMember, getAdminMember, listAdminMembers, patchAdminMember } from '../../../shared/api/admin/members';
import * as adminMembers from './admin';
import * as memberRequests from './requests';
import { registerEndpoint } from '../../routes/endpointRoute';
import { signInUrl } from '../signup/routes';
import { domainRoutes } from '../plugin';

/** The admin console's members and pending requests (domains/members/admin.ts, domains/members/requests.ts). */
export const adminMemberRoutes = domainRoutes('members.admin', (app, deps) => {
  const { db } = deps;
  registerEndpoint(app, listAdminMembers, async ({ tenant, query, requireMember }) =>
    adminMembers.listAdminMembers(db, tenant.id, query, requireMember().language),
  );
  registerEndpoint(app, getAdminMember, async ({ tenant, params, requireMember }) =>
    adminMembers.getAdminMember(db, tenant.id, params.id, requireMember().language),
  );
  registerEndpoint(app, patchAdminMember, async ({ params, body, requireMember }) => adminMembers.updateAdminMember(deps, requireMember(), params.id, body));
  registerEndpoint(app, deleteAdminMember, async ({ params, requireMember }) => {
    await adminMembers.deleteMembers(deps, requireMember(), [params.id]);
    return { ok: true as const };
  });
  registerEndpoint(app, bulkPatchMembers, async ({ body, requireMember }) => {
    const admin = requireMember();
    const updated = new Set<number>();
    // The status first: it refuses the admin's own account before anything is written.
    if (body.member_status !== undefined)
      for (const id of await adminMembers.setMembersStatus(deps, admin, body.member_ids, body.member_status)) updated.add(id);
    if (body.credit_quota !== undefined) for (const id of await adminMembers.setCreditQuota(deps, admin, body.member_ids, body.credit_quota)) updated.add(id);
    return { updated: updated.size };
  });
  registerEndpoint(app, bulkDeleteMembers, async ({ body, requireMember }) => ({
    deleted: await adminMembers.deleteMembers(deps, requireMember(), body.member_ids),
  }));

  registerEndpoint(app, listMemberRequests, async ({ tenant, query }) => memberRequests.listMemberRequests(db, tenant.id, query));
  registerEndpoint(app, processPendingRequest, async ({ tenant, params, body, request, requireMember }) => {
    const [decided] = await memberRequests.decideRequests(deps, tenant, requireMember(), [params.id], body, signInUrl(request));
    return { member_status: decided!.type === 'registration' && !body.approve ? ('rejected' as const) : ('approved' as const), request_type: decided!.type };
  });
  registerEndpoint(app, bulkProcessPendingRequests, async ({ tenant, body, request, requireMember }) => ({
    processed: (await memberRequests.decideRequests(deps, tenant, requireMember(), body.member_ids, body, signInUrl(request))).length,
  }));
});

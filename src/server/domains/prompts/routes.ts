import { createAdminPrompt, deleteAdminPrompt, listAdminPrompts, patchAdminPrompt } from '../../../shared/api/admin/prompts';
import { createPrompt, deletePrompt, listPrompts, patchPrompt } from '../../../shared/api/prompts';
import * as library from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The prompt library: a member's prompts (their own to change, the tenant's to insert) and the admin console's tenant prompts. */
export const promptRoutes = domainRoutes('prompts', (app, { db }) => {
  registerEndpoint(app, listPrompts, async ({ requireMember }) => ({ items: await library.listMemberPrompts(db, requireMember()) }));
  registerEndpoint(app, createPrompt, async ({ body, requireMember }) => {
    const member = requireMember();
    return library.createPrompt(db, library.personalOwner(member), member, body);
  });
  registerEndpoint(app, patchPrompt, async ({ params, body, requireMember }) => {
    const member = requireMember();
    return library.patchPrompt(db, library.personalOwner(member), member, params.id, body);
  });
  registerEndpoint(app, deletePrompt, async ({ params, requireMember }) => {
    const member = requireMember();
    await library.deletePrompt(db, library.personalOwner(member), member, params.id);
    return { ok: true as const };
  });

  registerEndpoint(app, listAdminPrompts, async ({ tenant, query }) => library.listTenantPrompts(db, tenant.id, query));
  registerEndpoint(app, createAdminPrompt, async ({ body, requireMember }) => {
    const admin = requireMember();
    return library.createPrompt(db, library.tenantOwner(admin), admin, body);
  });
  registerEndpoint(app, patchAdminPrompt, async ({ params, body, requireMember }) => {
    const admin = requireMember();
    return library.patchPrompt(db, library.tenantOwner(admin), admin, params.id, body);
  });
  registerEndpoint(app, deleteAdminPrompt, async ({ params, requireMember }) => {
    const admin = requireMember();
    await library.deletePrompt(db, library.tenantOwner(admin), admin, params.id);
    return { ok: true as const };
  });
});

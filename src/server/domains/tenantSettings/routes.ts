import { createCustomField, deleteCustomField, listAdminCustomFields, updateCustomField } from '../../../shared/api/admin/customFields';
import { createPolicy, deletePolicy, listAdminPolicies, updatePolicy, uploadPolicyFile } from '../../../shared/api/admin/policies';
import { deleteTenantLogo, getTenantLogo, getTenantSettings, updateTenantSettings, uploadTenantLogo } from '../../../shared/api/admin/tenantSettings';
import { getPolicyFile, listPolicies } from '../../../shared/api/signup';
import { LOGO_KINDS, LOGO_MAX_BYTES, POLICY_FILE_KINDS, POLICY_FILE_MAX_BYTES } from '../../../shared/domain/tenantSettings';
import * as customFields from '../members/customFields';
import * as policies from './policies';
import * as settings from './service';
import type { TenantRow } from '../../db/rows';
import { registerEndpoint } from '../../routes/endpointRoute';
import { readUpload, registerMultipartRoutes, sendFile } from '../files/routes';
import { domainRoutes } from '../plugin';

const ok = { ok: true as const };

/** The console's tenant settings (branding, support, custom fields, policies) and their public reads. */
export const tenantSettingsRoutes = domainRoutes('tenantSettings', (app, deps) => {
  const { db } = deps;
  registerEndpoint(app, getTenantSettings, async ({ tenant }) => settings.readTenantSettings(db, tenant));
  // Branding shows at once on this process (GET /tenants/ reads the cached row): the write drops it.
  const thenForget = <T>(tenant: TenantRow, result: Promise<T>) => result.finally(() => app.forgetTenant(tenant));
  registerEndpoint(app, updateTenantSettings, async ({ tenant, body, requireMember }) =>
    thenForget(tenant, settings.updateTenantSettings(db, tenant, requireMember(), body)),
  );
  registerEndpoint(app, deleteTenantLogo, async ({ tenant, requireMember }) => thenForget(tenant, settings.deleteLogo(deps, tenant, requireMember())));
  registerEndpoint(app, getTenantLogo, async ({ tenant, params, reply }) => {
    const logo = await settings.downloadLogo(deps, tenant, params.id);
    // The desktop renderer (app://bundle) shows it from another origin, like the server's assets.
    reply.header('cross-origin-resource-policy', 'cross-origin');
    return sendFile(reply, logo);
  });

  registerEndpoint(app, listAdminCustomFields, async ({ tenant, requireMember }) => ({
    items: await customFields.listAdminCustomFields(db, tenant, requireMember().language),
  }));
  registerEndpoint(app, createCustomField, async ({ tenant, body, requireMember }) => customFields.createCustomField(db, tenant, requireMember(), body));
  registerEndpoint(app, updateCustomField, async ({ tenant, params, body, requireMember }) =>
    customFields.updateCustomField(db, tenant, requireMember(), params.id, body),
  );
  registerEndpoint(app, deleteCustomField, async ({ tenant, params, requireMember }) => {
    await customFields.deleteCustomField(db, tenant, requireMember(), params.id);
    return ok;
  });

  registerEndpoint(app, listPolicies, async ({ tenant }) => ({ items: await policies.listPolicies(db, tenant) }));
  registerEndpoint(app, getPolicyFile, async ({ tenant, params, reply }) => sendFile(reply, await policies.downloadPolicyFile(deps, tenant, params.id)));
  registerEndpoint(app, listAdminPolicies, async ({ tenant }) => ({ items: await policies.listAdminPolicies(db, tenant) }));
  registerEndpoint(app, createPolicy, async ({ tenant, body, requireMember }) => policies.createPolicy(deps, tenant, requireMember(), body));
  registerEndpoint(app, updatePolicy, async ({ tenant, params, body, requireMember }) => policies.updatePolicy(deps, tenant, requireMember(), params.id, body));
  registerEndpoint(app, deletePolicy, async ({ tenant, params, requireMember }) => {
    await policies.deletePolicy(deps, tenant, requireMember(), params.id);
    return ok;
  });

  registerMultipartRoutes(app, (scope) => {
    registerEndpoint(scope, uploadTenantLogo, async ({ tenant, requireMember, request }) => {
      const { parts } = await readUpload(request, { maxBytes: LOGO_MAX_BYTES, maxPages: 0, allowedKinds: [...LOGO_KINDS] });
      return thenForget(tenant, settings.uploadLogo(deps, tenant, requireMember(), parts));
    });
    registerEndpoint(scope, uploadPolicyFile, async ({ tenant, requireMember, request }) => {
      const { parts } = await readUpload(request, { maxBytes: POLICY_FILE_MAX_BYTES, maxPages: 0, allowedKinds: [...POLICY_FILE_KINDS] });
      const file = await policies.uploadPolicyFile(deps, tenant, requireMember(), parts);
      return { file_id: file.id, name: file.name, size: file.sizeBytes, type: file.mimeType };
    });
  });
});

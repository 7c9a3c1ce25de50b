import { createRestrictedWord, deleteRestrictedWord, getAdminPiiSettings, listRestrictedWords, patchPiiSettings } from '../../../shared/api/admin/security';
import { getPiiSettings } from '../../../shared/api/piiSettings';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Restricted words and personal-data settings (spec §2 "restricted words and privacy blocking"). */
export const securityRoutes = domainRoutes('security', (app, { guard }) => {
  registerEndpoint(app, getPiiSettings, async ({ tenant }) => guard.piiSettings(tenant.id));

  registerEndpoint(app, listRestrictedWords, async ({ tenant, query }) => guard.listWords(tenant.id, query));
  registerEndpoint(app, createRestrictedWord, async ({ tenant, body, requireMember }) => guard.addWord(tenant.id, requireMember(), body.word));
  registerEndpoint(app, deleteRestrictedWord, async ({ tenant, params, requireMember }) => {
    await guard.deleteWord(tenant.id, requireMember(), params.id);
    return { ok: true as const };
  });
  registerEndpoint(app, getAdminPiiSettings, async ({ tenant }) => guard.readPiiSettings(tenant.id));
  registerEndpoint(app, patchPiiSettings, async ({ tenant, body, requireMember }) => guard.updatePiiSettings(tenant.id, requireMember(), body));
});

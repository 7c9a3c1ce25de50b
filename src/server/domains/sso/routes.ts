import { createSsoPlatform, deleteSsoPlatform, listAdminSsoPlatforms, updateSsoPlatform } from '../../../shared/api/admin/ssoPlatforms';
import { connectSsoAccount, disconnectSsoAccount, listSsoPlatforms, ssoAuthorize, ssoSendCode, ssoSignUp, ssoVerify } from '../../../shared/api/sso';
import * as sso from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { signInUrl } from '../signup/routes';
import { domainRoutes } from '../plugin';

/** SSO platforms, their two-step verification, SSO sign-up and account connection (sign-in is with the auth routes). */
export const ssoRoutes = domainRoutes('sso', (app, deps) => {
  const { config } = deps;
  const { db } = deps;
  // Each step may reach the platform and send a code: limited like sign-in per client.
  const limited = { rateLimit: { name: 'sso', limit: config.SIGN_IN_RATE_LIMIT, windowMs: 60_000 } };
  registerEndpoint(app, listSsoPlatforms, async ({ tenant }) => ({ items: await sso.listPlatforms(db, tenant), sso_only: tenant.ssoOnly }));
  registerEndpoint(app, ssoAuthorize, async ({ tenant, params, body }) => sso.authorize(deps, tenant, params.id, body), limited);
  registerEndpoint(app, ssoVerify, async ({ tenant, params, body }) => sso.verify(deps, tenant, params.id, body), limited);
  registerEndpoint(app, ssoSendCode, async ({ tenant, params, body }) => sso.resendCode(deps, tenant, params.id, body), limited);
  registerEndpoint(app, ssoSignUp, async ({ tenant, body, request }) => sso.signUp(deps, tenant, body, signInUrl(request)), {
    rateLimit: { name: 'sign-up', limit: config.SIGN_UP_RATE_LIMIT, windowMs: 60_000 },
  });
  registerEndpoint(app, connectSsoAccount, async ({ tenant, requireMember, params, body }) => sso.connect(deps, tenant, requireMember(), params.id, body));
  registerEndpoint(app, disconnectSsoAccount, async ({ tenant, requireMember, params }) => sso.disconnect(deps, tenant, requireMember(), params.id));

  registerEndpoint(app, listAdminSsoPlatforms, async ({ tenant }) => sso.listAdminPlatforms(db, tenant));
  registerEndpoint(app, createSsoPlatform, async ({ tenant, body, requireMember }) => sso.createPlatform(deps, tenant, requireMember(), body));
  registerEndpoint(app, updateSsoPlatform, async ({ tenant, params, body, requireMember }) =>
    sso.updatePlatform(deps, tenant, requireMember(), params.id, body),
  );
  registerEndpoint(app, deleteSsoPlatform, async ({ tenant, params, requireMember }) => sso.deletePlatform(deps, tenant, requireMember(), params.id));
});

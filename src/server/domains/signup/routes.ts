import type { FastifyRequest } from 'fastify';
import { updateSignupSettings } from '../../../shared/api/admin/signupSettings';
import { getSignupSettings, listCustomFields, memberCountCheck, sendCode, signUp } from '../../../shared/api/signup';
import * as signup from './service';
import { readerLanguage } from '../../../shared/domain/language';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The sign-in page of the server the request reached, for links in mails. */
export const signInUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}/auth`;

export const signupRoutes = domainRoutes('signup', (app, deps) => {
  const { config } = deps;
  const { db } = deps;
  registerEndpoint(app, getSignupSettings, async ({ tenant }) => signup.signupSettings(tenant));
  registerEndpoint(app, updateSignupSettings, async ({ tenant, body, requireMember }) =>
    signup.updateSignupSettings(db, tenant, requireMember(), body).finally(() => app.forgetTenant(tenant)),
  );
  registerEndpoint(app, memberCountCheck, async ({ tenant }) => signup.memberCountCheck(db, tenant));
  registerEndpoint(app, listCustomFields, async ({ tenant, query, member }) => ({
    items: await signup.listSignupCustomFields(db, tenant, readerLanguage(query.language, member)),
  }));
  registerEndpoint(
    app,
    sendCode,
    async ({ tenant, body, reply }) => {
      try {
        return await signup.sendCode(deps, tenant, body);
      } catch (error) {
        const wait = (error as { details?: { retry_after_seconds?: number } }).details?.retry_after_seconds;
        if (wait) reply.header('retry-after', wait);
        throw error;
      }
    },
    { rateLimit: { name: 'auth-code', limit: config.SIGN_UP_RATE_LIMIT, windowMs: 60_000 } },
  );
  registerEndpoint(app, signUp, async ({ tenant, body, request }) => signup.signUp(deps, tenant, body, signInUrl(request)), {
    rateLimit: { name: 'sign-up', limit: config.SIGN_UP_RATE_LIMIT, windowMs: 60_000 },
  });
});

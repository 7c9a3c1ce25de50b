import { changePassword, confirmPasswordReset, resetPassword } from '../../../shared/api/passwords';
import { ACCESS_TOKEN_HEADER } from '../../../shared/domain/http';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const passwordRoutes = domainRoutes('auth.passwords', (app, { passwords, config }) => {
  const limits = { ipLimit: config.PASSWORD_RESET_IP_RATE_LIMIT, windowMs: config.AUTH_RATE_WINDOW_SECONDS * 1000 };
  const perIp = (name: string) => ({ rateLimit: { name, limit: limits.ipLimit, windowMs: limits.windowMs } });

  registerEndpoint(
    app,
    resetPassword,
    async ({ body, tenant }) => {
      await passwords.requestReset(tenant, body.email);
      return { ok: true as const };
    },
    perIp('password-reset'),
  );

  registerEndpoint(
    app,
    confirmPasswordReset,
    async ({ body, tenant }) => {
      await passwords.confirmReset(tenant, body.token, body.new_password);
      return { ok: true as const };
    },
    perIp('password-reset-confirm'),
  );

  registerEndpoint(app, changePassword, async ({ body, tenant, requireMember, request }) => {
    const token = request.headers[ACCESS_TOKEN_HEADER];
    await passwords.changePassword(tenant, requireMember(), body.password, body.new_password, Array.isArray(token) ? token[0] : token);
    return { ok: true as const };
  });
});

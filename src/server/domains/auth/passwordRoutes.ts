import type { FastifyInstance } from 'fastify';
import { changePassword, confirmPasswordReset, resetPassword } from '../../../shared/api/passwords';
import { ACCESS_TOKEN_HEADER } from '../../../shared/domain/http';
import type { PasswordService } from './passwords';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerPasswordRoutes(app: FastifyInstance, passwords: PasswordService, limits: { ipLimit: number; windowMs: number }): void {
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
}

import type { FastifyInstance } from 'fastify';
import { changePassword, confirmPasswordReset, resetPassword } from '../../shared/api/passwords';
import { REFRESH_COOKIE } from '../../shared/domain/http';
import type { PasswordService } from '../services/passwords';
import { registerEndpoint } from './endpointRoute';

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

  // The web client's refresh cookie (path /api/v1/auth) names this session, which stays signed in.
  registerEndpoint(app, changePassword, async ({ body, requireMember, request }) => {
    await passwords.changePassword(requireMember(), body.password, body.new_password, request.cookies[REFRESH_COOKIE]);
    return { ok: true as const };
  });
}

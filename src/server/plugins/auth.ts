import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_HEADER } from '../../shared/domain/http';
import { PUBLIC_ACCESS_TOKEN } from '../../shared/domain/sharing';
import type { AuthMember, AuthService } from '../domains/auth/service';

declare module 'fastify' {
  interface FastifyRequest {
    member: AuthMember | null;
  }
  interface FastifyInstance {
    /** Sets request.member from x-access-token or throws 401/403. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** Sets request.member when a valid token is present; never fails (public endpoints). */
    authenticateOptional(request: FastifyRequest): Promise<void>;
  }
}

function accessToken(request: FastifyRequest): string | undefined {
  const header = request.headers[ACCESS_TOKEN_HEADER];
  return Array.isArray(header) ? header[0] : header;
}

export function registerAuthentication(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('member', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.member = await auth.authenticate(request.tenant, accessToken(request));
  });
  app.decorate('authenticateOptional', async (request: FastifyRequest) => {
    const token = accessToken(request);
    // Spec §6: signed-out callers of public paths send the token value `public`.
    if (!token || token === PUBLIC_ACCESS_TOKEN) return;
    request.member = await auth.authenticate(request.tenant, token).catch(() => null);
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { refresh, signIn, signOut, ssoSignIn } from '../../../shared/api/auth';
import type { AuthTokens } from '../../../shared/api/auth';
import { API_PREFIX, CLIENT_KIND_HEADER, REFRESH_COOKIE } from '../../../shared/domain/http';
import { AppError } from '../../errors';
import type { IssuedTokens } from './service';
import { toMemberDto } from '../members/service';
import * as sso from '../sso/service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

const REFRESH_COOKIE_PATH = `${API_PREFIX}/auth`;

const isDesktop = (request: FastifyRequest) => request.headers[CLIENT_KIND_HEADER] === 'desktop';

/** Every endpoint that answers with tokens, so the cookie and body rules live in one place. */
export const authRoutes = domainRoutes('auth', (app, deps) => {
  const { db, auth, config, signInDelays } = deps;

  /** Web clients get the refresh token only as an HttpOnly cookie; desktop clients in the body. */
  async function respondWithTokens(request: FastifyRequest, reply: FastifyReply, issued: IssuedTokens): Promise<AuthTokens> {
    const body: AuthTokens = {
      access_token: issued.accessToken,
      access_token_expires_at: issued.accessTokenExpiresAt.toISOString(),
      member: await toMemberDto(db, issued.member),
    };
    if (isDesktop(request)) {
      body.refresh_token = issued.refreshToken;
    } else {
      reply.setCookie(REFRESH_COOKIE, issued.refreshToken, {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.COOKIE_SECURE,
        path: REFRESH_COOKIE_PATH,
        maxAge: config.REFRESH_TOKEN_TTL_DAYS * 86_400,
      });
    }
    return body;
  }

  const presentedRefreshToken = (request: FastifyRequest, fromBody: string | undefined) => (isDesktop(request) ? fromBody : request.cookies[REFRESH_COOKIE]);

  registerEndpoint(
    app,
    signIn,
    async ({ body, tenant, request, reply }) => {
      // Growing delays per email and per client IP instead of a lockout (shared/rateLimit
      // `createSignInDelays`): a client that has not been failing always gets its password checked.
      const email = body.email.trim().toLowerCase();
      await signInDelays.check(tenant.id, email, request.ip);
      try {
        return await respondWithTokens(request, reply, await auth.signIn(tenant, body.email, body.password));
      } catch (error) {
        if (error instanceof AppError && error.code === 'invalid_credentials') await signInDelays.failed(tenant.id, email, request.ip);
        throw error;
      }
    },
    { rateLimit: { name: 'sign-in', limit: config.SIGN_IN_RATE_LIMIT, windowMs: 60_000 } },
  );

  registerEndpoint(app, ssoSignIn, async ({ body, tenant, request, reply }) => respondWithTokens(request, reply, await sso.signIn(deps, tenant, body)), {
    rateLimit: { name: 'sign-in', limit: config.SIGN_IN_RATE_LIMIT, windowMs: 60_000 },
  });

  registerEndpoint(app, refresh, async ({ body, tenant, request, reply }) => {
    try {
      return await respondWithTokens(request, reply, await auth.rotateRefreshToken(tenant, presentedRefreshToken(request, body.refresh_token)));
    } catch (error) {
      if (!isDesktop(request)) reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
      throw error;
    }
  });

  registerEndpoint(app, signOut, async ({ body, tenant, request, reply }) => {
    await auth.signOut(tenant, presentedRefreshToken(request, body.refresh_token));
    reply.clearCookie(REFRESH_COOKIE, { path: REFRESH_COOKIE_PATH });
    return { ok: true as const };
  });
});

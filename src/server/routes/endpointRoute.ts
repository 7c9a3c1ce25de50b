import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { type AccessLevel, type Endpoint, type ErrorStatus, declaredErrors, errorsByRule } from '../../shared/api/endpoint';
import { forbidden, unauthorized } from '../errors';
import { type RouteRateLimit, limitRequest } from '../plugins/rateLimit';
import type { ApiKeyCaller } from '../domains/apiKeys/service';
import type { AuthMember } from '../domains/auth/service';
import type { TenantRow } from '../db/rows';

export interface RouteContext<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  tenant: TenantRow;
  /** The signed-in member; null only on public endpoints called without a token. */
  member: AuthMember | null;
  /** The signed-in member, or a 401 (for public endpoints that behave differently when signed in). */
  requireMember(): AuthMember;
  /** The API key of an `apiKey` endpoint's call (its owner is `member`). */
  requireApiKey(): ApiKeyCaller;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The OpenAPI security requirement of an access level (schemes declared in app.ts). */
export function securityRequirement(access: AccessLevel): Record<string, string[]>[] {
  if (access === 'public') return [];
  return access === 'apiKey' ? [{ apiKey: [] }] : [{ accessToken: [] }];
}

/**
 * The OpenAPI responses of an endpoint's failures, by status: the `{code, message, details?}` body
 * with the codes it may carry (declared, then by rule) as an enum and in the description.
 */
export function errorResponses(endpoint: Endpoint): Record<string, object> {
  const codesByStatus = new Map<ErrorStatus, string[]>();
  for (const [status, code] of [...declaredErrors(endpoint), ...errorsByRule(endpoint)]) {
    const codes = codesByStatus.get(status) ?? [];
    if (!codes.includes(code)) codesByStatus.set(status, [...codes, code]);
  }
  return Object.fromEntries(
    [...codesByStatus].map(([status, codes]) => [
      String(status),
      {
        description: `Error: ${codes.join(', ')}`,
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', enum: codes }, message: { type: 'string' }, details: {} },
      },
    ]),
  );
}

/** Returned by handlers that wrote the response themselves (the chat stream). */
export const RESPONSE_WRITTEN: unique symbol = Symbol('response written');

export interface EndpointRouteOptions {
  /** Per client IP, counted in the shared store, so it holds across server processes. */
  rateLimit?: RouteRateLimit;
  /** The largest body in bytes, when not Fastify's 1 MiB; a larger one is refused (413) before it is parsed. */
  bodyLimit?: number;
}

/**
 * Registers a route from a shared `defineEndpoint` object: method, url, validation, response
 * serialization, OpenAPI and the access guard all come from the contract: `member` and `admin`
 * endpoints require a valid access token of the tenant, `admin` ones also is_admin, `apiKey` ones
 * an API key of the tenant as `Authorization: Bearer <key>` (and count against its rate limit).
 */
export function registerEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: (ctx: RouteContext<P, Q, B>) => Promise<z.output<R> | typeof RESPONSE_WRITTEN>,
  options: EndpointRouteOptions = {},
): void {
  // `x-access` is an OpenAPI extension @fastify/swagger copies onto the operation as is.
  const schema: FastifySchema & { 'x-access': AccessLevel } = {
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    response: { 200: endpoint.response },
    summary: endpoint.summary,
    tags: endpoint.tags,
    // An empty list says "no authentication needed" explicitly instead of inheriting a default.
    security: securityRequirement(endpoint.access),
    'x-access': endpoint.access,
  };
  const routeOptions: RouteShorthandOptions = {
    schema,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    // The error handler checks the codes the route answers against the endpoint's declaration.
    config: { endpoint },
    onRequest: async (request, reply) => {
      if (options.rateLimit) await limitRequest(request, reply, options.rateLimit);
      if (endpoint.access === 'public') {
        await request.server.authenticateOptional(request);
        return;
      }
      if (endpoint.access === 'apiKey') {
        await request.server.authenticateApiKey(request);
        return;
      }
      await request.server.authenticate(request);
      if (endpoint.access === 'admin' && !request.member?.isAdmin) throw forbidden('This is a restricted access page.');
    },
  };
  app.route({
    ...routeOptions,
    method: endpoint.method,
    url: endpoint.path,
    handler: async (request, reply) => {
      const result = await handler({
        params: request.params as z.output<P>,
        query: request.query as z.output<Q>,
        body: request.body as z.output<B>,
        tenant: request.tenant,
        member: request.member,
        requireMember: () => {
          if (!request.member) throw unauthorized();
          return request.member;
        },
        requireApiKey: () => {
          if (!request.apiKey) throw unauthorized();
          return request.apiKey;
        },
        request,
        reply,
      });
      if (result === RESPONSE_WRITTEN) return reply;
      return result;
    },
  });
}

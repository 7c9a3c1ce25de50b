import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '../../shared/api/endpoint';
import { forbidden, unauthorized } from '../errors';
import { type RouteRateLimit, limitRequest } from '../plugins/rateLimit';
import type { AuthMember } from '../services/auth';
import type { TenantRow } from '../plugins/tenant';

export interface RouteContext<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  tenant: TenantRow;
  /** The signed-in member; null only on public endpoints called without a token. */
  member: AuthMember | null;
  /** The signed-in member, or a 401 (for public endpoints that behave differently when signed in). */
  requireMember(): AuthMember;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Returned by handlers that wrote the response themselves (the chat stream). */
export const RESPONSE_WRITTEN: unique symbol = Symbol('response written');

export interface EndpointRouteOptions {
  /** Per client IP, counted in the shared store, so it holds across server processes. */
  rateLimit?: RouteRateLimit;
}

/**
 * Registers a route from a shared `defineEndpoint` object: method, url, validation, response
 * serialization and OpenAPI all come from the contract. Non-public endpoints require a valid access
 * token; endpoints under /admin/ also require is_admin.
 */
export function registerEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: (ctx: RouteContext<P, Q, B>) => Promise<z.output<R> | typeof RESPONSE_WRITTEN>,
  options: EndpointRouteOptions = {},
): void {
  const isAdminRoute = endpoint.path.startsWith('/admin/');
  const routeOptions: RouteShorthandOptions = {
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { 200: endpoint.response },
      summary: endpoint.summary,
      tags: endpoint.tags,
      ...(endpoint.public ? {} : { security: [{ accessToken: [] }] }),
    },
    onRequest: async (request, reply) => {
      if (options.rateLimit) await limitRequest(request, reply, options.rateLimit);
      if (endpoint.public) {
        await request.server.authenticateOptional(request);
        return;
      }
      await request.server.authenticate(request);
      if (isAdminRoute && !request.member?.isAdmin) throw forbidden('This is a restricted access page.');
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
        request,
        reply,
      });
      if (result === RESPONSE_WRITTEN) return reply;
      return result;
    },
  });
}

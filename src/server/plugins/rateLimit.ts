import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../shared/rateLimit';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared rate limiter (PostgreSQL or Redis counters), for routes and services. */
    rateLimiter: RateLimiter;
  }
}

/** A route's limit: at most `limit` requests per client IP in each `windowMs`, counted under `name`. */
export interface RouteRateLimit {
  name: string;
  limit: number;
  windowMs: number;
}

export function registerRateLimiter(app: FastifyInstance, limiter: RateLimiter): void {
  app.decorate('rateLimiter', limiter);
}

/**
 * Counts the request against the route's limit; over it, answers 429 (with Retry-After). The client
 * IP is the socket's, or X-Forwarded-For's with TRUST_PROXY behind a load balancer.
 */
export async function limitRequest(request: FastifyRequest, reply: FastifyReply, { name, limit, windowMs }: RouteRateLimit): Promise<void> {
  // Over the limit it throws RateLimitedError, which the error handler answers with Retry-After.
  const state = await request.server.rateLimiter.rateLimit(`${name}:${request.ip}`, limit, windowMs);
  reply.header('x-ratelimit-limit', limit).header('x-ratelimit-remaining', state.remaining);
}

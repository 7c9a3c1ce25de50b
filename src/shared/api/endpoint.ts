import { z } from 'zod';

/**
 * One endpoint of the HTTP contract. The server registers its route from it (validation and
 * OpenAPI come from the same schemas) and the client calls it through `callEndpoint`, so request
 * and response types are never written twice.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint. `public`: anyone (a token, when sent, still identifies the caller);
 * `member`: a valid access token of the tenant; `admin`: a member with is_admin; `apiKey`: a
 * developer's API key of the tenant as `Authorization: Bearer <key>` (the OpenAI-compatible API).
 * Every endpoint states its level, so opening one to the world is a visible line in a diff, never
 * a default.
 */
export const ACCESS_LEVELS = ['public', 'member', 'admin', 'apiKey'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Path under the API base, Fastify style: `/sessions/:hash/`. */
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Required: who may call it (see AccessLevel). */
  access: AccessLevel;
  /**
   * True when the request or the answer carries session tokens (sign-in, refresh, sign-out, and any
   * later endpoint that signs someone in). Only the desktop main process may call such an endpoint:
   * its bridge refuses the renderer any path that matches one (DESIGN §5, docs/decisions/0050-desktop-tokens.md).
   */
  carriesTokens?: true;
  summary: string;
  tags: string[];
}

export function defineEndpoint<
  P extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  R extends z.ZodType = z.ZodType,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}

export type EndpointParams<E> = E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type EndpointQuery<E> = E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type EndpointBody<E> = E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type EndpointResponse<E> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Fills `:name` segments of an endpoint path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

import { z } from 'zod';
import type { ErrorCode } from '../domain/errors';

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

/** The statuses an endpoint may answer an error code with (besides its success). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 423 | 424 | 428 | 429 | 500 | 502 | 503;

/**
 * The error codes an endpoint answers, by status: `{ 404: ['not_found'], 409: ['conflict'] }`.
 * Only its own; the ones every endpoint of an access level answers come from `ERRORS_BY_RULE`.
 */
export type ErrorDeclaration = { readonly [S in ErrorStatus]?: readonly ErrorCode[] };

/**
 * What every endpoint may answer without declaring it: malformed input (400), too many requests
 * (429), a server fault (500), and the refusals of its access guard.
 */
export const ERRORS_BY_RULE = {
  every: { 400: ['validation_error', 'bad_request'], 429: ['rate_limited'], 500: ['internal_error'] },
  public: {},
  member: { 401: ['unauthorized', 'session_expired'], 403: ['account_deactivated'] },
  admin: { 401: ['unauthorized', 'session_expired'], 403: ['account_deactivated', 'forbidden'] },
  apiKey: { 401: ['invalid_api_key'] },
} as const satisfies Record<'every' | AccessLevel, ErrorDeclaration>;

export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  E extends ErrorDeclaration = ErrorDeclaration,
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
  /**
   * Required: the (status, code) pairs of `AppError` the endpoint answers besides its success and
   * `ERRORS_BY_RULE`, `{}` when none. The server refuses to answer another code in tests (and logs
   * it in production); the client's message table is keyed by them (renderer api/errorCatalog.ts).
   */
  errors: E;
  summary: string;
  tags: string[];
}

export function defineEndpoint<
  P extends z.ZodType = z.ZodNever,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  R extends z.ZodType = z.ZodType,
  const E extends ErrorDeclaration = ErrorDeclaration,
>(endpoint: Endpoint<P, Q, B, R, E>): Endpoint<P, Q, B, R, E> {
  return endpoint;
}

/** The codes an endpoint declares (not those by rule): what its row of the client's message table is keyed by. */
export type DeclaredErrorCode<E> = E extends { errors: infer D } ? { [S in keyof D]: D[S] extends readonly (infer C)[] ? C : never }[keyof D] : never;

type ErrorPairs = [status: ErrorStatus, code: ErrorCode][];
const pairsOf = (declaration: ErrorDeclaration): ErrorPairs =>
  Object.entries(declaration).flatMap(([status, codes]) => (codes ?? []).map((code): [ErrorStatus, ErrorCode] => [Number(status) as ErrorStatus, code]));

/** The pairs an endpoint answers by rule (its access level's and every endpoint's). */
export const errorsByRule = (endpoint: Pick<Endpoint, 'access'>): ErrorPairs => [...pairsOf(ERRORS_BY_RULE.every), ...pairsOf(ERRORS_BY_RULE[endpoint.access])];

/** The pairs an endpoint declares itself. */
export const declaredErrors = (endpoint: Pick<Endpoint, 'errors'>): ErrorPairs => pairsOf(endpoint.errors);

/** Whether an endpoint may answer `code` with `status`: declared, or by rule. */
export const answersError = (endpoint: Pick<Endpoint, 'access' | 'errors'>, status: number, code: string): boolean =>
  [...declaredErrors(endpoint), ...errorsByRule(endpoint)].some(([s, c]) => s === status && c === code);

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

import {
  type InfiniteData,
  type QueryClient,
  type QueryKey,
  type UseInfiniteQueryOptions,
  type UseMutationOptions,
  type UseQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import type { Endpoint, EndpointQuery, EndpointResponse } from '../../../shared/api/endpoint';
import { callEndpoint, type CallOptions } from './client';
import type { ErrorMessageOverride } from './errorMessages';

type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

/**
 * The contract-driven data layer: a query or mutation names its endpoint, and its cache key, types
 * and error message follow from it. The one error toast of a failed call is shown by the query
 * client (queryClient.ts), from `meta`.
 */

/**
 * Whether a failed call shows its toast, and with which message. `true`: the endpoint's message
 * (errorCatalog.ts); `false`: none (the screen says it, e.g. under a field); an object: only
 * `when` the error is one to toast, with the screen's `overrides` tried first.
 */
export type ErrorToast = boolean | { when?: (error: unknown) => boolean; overrides?: readonly ErrorMessageOverride[] };

/** What the query client's error handlers read of a call (TanStack `meta`, typed in queryClient.ts). */
export type EndpointMeta = {
  endpoint?: Endpoint;
  errorToast?: ErrorToast;
};

/** Query-string values that send nothing (client.ts `toSearchParams`) leave the key as they leave the request. */
function sentQuery(query: unknown): Record<string, unknown> | undefined {
  const entries = Object.entries((query ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null && value !== '');
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/**
 * The cache key of an endpoint's answer: `[method, path]`, then the params and query sent, so one
 * endpoint's every answer is invalidated by `endpointKey(endpoint)` (a prefix) and one item's by
 * `endpointKey(endpoint, { params })`. Object keys are hashed in sorted order, so the key is stable.
 */
export function endpointKey(endpoint: Pick<Endpoint, 'method' | 'path'>, input?: { params?: unknown; query?: unknown }): QueryKey {
  const base = [endpoint.method, endpoint.path];
  if (!input) return base;
  const query = sentQuery(input.query);
  const sent = { ...(input.params !== undefined ? { params: input.params } : {}), ...(query ? { query } : {}) };
  return Object.keys(sent).length ? [...base, sent] : base;
}

/** Marks every answer of `endpoints` stale (the ones on screen reload); resolves once they did. */
export async function invalidateEndpoints(queryClient: QueryClient, endpoints: readonly Pick<Endpoint, 'method' | 'path'>[]): Promise<void> {
  await Promise.all(endpoints.map((endpoint) => queryClient.invalidateQueries({ queryKey: endpointKey(endpoint) })));
}

/** A GET's input: its params and query (never a body). */
export type QueryInput<E> = Omit<CallOptions<E>, 'body'>;

type QueryOptions<E extends AnyEndpoint, TData> = Omit<UseQueryOptions<EndpointResponse<E>, Error, TData>, 'queryKey' | 'queryFn' | 'meta'> & {
  /** A failed load's toast; none unless asked (most screens show a failed load in place). */
  errorToast?: ErrorToast;
};

/** Loads one endpoint's answer, cached under `endpointKey(endpoint, input)`. */
export function useEndpointQuery<E extends AnyEndpoint, TData = EndpointResponse<E>>(endpoint: E, input: QueryInput<E>, options: QueryOptions<E, TData> = {}) {
  const { errorToast = false, ...queryOptions } = options;
  return useQuery({
    ...queryOptions,
    queryKey: endpointKey(endpoint, input),
    queryFn: () => callEndpoint(endpoint, input as CallOptions<E>),
    meta: { endpoint, errorToast } satisfies EndpointMeta,
  });
}

/**
 * The cache key of an endpoint's answers loaded page after page (useEndpointInfiniteQuery): below
 * `endpointKey(endpoint, input)`, so invalidating the endpoint reaches it, yet never the key of a
 * single page's answer, whose data has another shape.
 */
export function endpointPagesKey(endpoint: Pick<Endpoint, 'method' | 'path'>, input?: { params?: unknown; query?: unknown }): QueryKey {
  return [...endpointKey(endpoint, input), 'pages'];
}

type InfiniteQueryOptions<E extends AnyEndpoint, TPageParam> = Omit<
  UseInfiniteQueryOptions<EndpointResponse<E>, Error, InfiniteData<EndpointResponse<E>, TPageParam>, QueryKey, TPageParam>,
  'queryKey' | 'queryFn' | 'meta'
> & {
  /** The query values naming the page to load (`page`, or a cursor such as `first_id`). */
  pageQuery: (pageParam: TPageParam) => Partial<EndpointQuery<E>>;
  errorToast?: ErrorToast;
};

/** Loads an endpoint's answers page after page (a list read to its end, a history read backwards), cached under `endpointPagesKey(endpoint, input)`. */
export function useEndpointInfiniteQuery<E extends AnyEndpoint, TPageParam>(endpoint: E, input: QueryInput<E>, options: InfiniteQueryOptions<E, TPageParam>) {
  const { errorToast = false, pageQuery, ...queryOptions } = options;
  return useInfiniteQuery<EndpointResponse<E>, Error, InfiniteData<EndpointResponse<E>, TPageParam>, QueryKey, TPageParam>({
    ...queryOptions,
    queryKey: endpointPagesKey(endpoint, input),
    queryFn: ({ pageParam }) =>
      callEndpoint(endpoint, { ...input, query: { ...(input as { query?: object }).query, ...pageQuery(pageParam as TPageParam) } } as CallOptions<E>),
    meta: { endpoint, errorToast } satisfies EndpointMeta,
  });
}

/** A mutation's input: its params and body; none (`mutate()`) for an endpoint that takes neither. */
export type MutationInput<E> = Record<string, never> extends CallOptions<E> ? CallOptions<E> | void : CallOptions<E>;

type MutationOptions<E, TVariables, TData, TContext> = Omit<UseMutationOptions<TData, Error, TVariables, TContext>, 'mutationFn' | 'meta'> & {
  /** What a success makes stale: every answer of these endpoints, or the keys the call names. */
  invalidates?: readonly AnyEndpoint[] | ((variables: TVariables, data: TData) => readonly QueryKey[]);
  /** A failure's toast: the endpoint's message unless told otherwise (see ErrorToast). */
  errorToast?: ErrorToast;
  /**
   * How the call is sent when it is not one JSON request of `endpoint` (a multipart upload, see
   * files.ts `uploadFile`; a file download; a list sent in batches); callEndpoint otherwise.
   */
  send?: (variables: TVariables) => Promise<TData>;
  /**
   * The call's params and body from the screen's own variables, when the screen's callbacks need
   * more than the call sends (the deleted session's title for its toast); the variables are the call's input otherwise.
   */
  toInput?: (variables: TVariables) => CallOptions<E>;
};

/**
 * Calls one endpoint with the mutation's variables (its params and body), then invalidates what
 * `invalidates` names (not awaited: the screen moves on as soon as the call is answered). Pending
 * state is the mutation's `isPending`.
 */
export function useEndpointMutation<E extends AnyEndpoint, TVariables = MutationInput<E>, TData = EndpointResponse<E>, TContext = unknown>(
  endpoint: E,
  options: MutationOptions<E, TVariables, TData, TContext> = {},
) {
  const queryClient = useQueryClient();
  const { invalidates, errorToast = true, send, toInput, onSuccess, ...mutationOptions } = options;
  return useMutation<TData, Error, TVariables, TContext>({
    ...mutationOptions,
    mutationFn: send ?? ((variables) => callEndpoint(endpoint, (toInput ? toInput(variables) : (variables ?? {})) as CallOptions<E>) as Promise<TData>),
    meta: { endpoint, errorToast } satisfies EndpointMeta,
    onSuccess: (data, variables, ...rest) => {
      if (typeof invalidates === 'function') for (const queryKey of invalidates(variables, data)) void queryClient.invalidateQueries({ queryKey });
      else if (invalidates) void invalidateEndpoints(queryClient, invalidates);
      return onSuccess?.(data, variables, ...rest);
    },
  });
}

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../deps';

/** The plugin (app.ts) that decorates requests with the tenant, the member and the API-key caller, which every domain's routes read. */
export const REQUEST_CONTEXT = 'request-context';

/**
 * A domain's routes as a named Fastify plugin that gets the container as its options. Not
 * encapsulated (fastify-plugin): like the register calls it replaces, it adds its routes to the
 * scope that registers it, under its API prefix and behind its hooks.
 */
export function domainRoutes(name: string, register: (app: FastifyInstance, deps: AppDeps) => void | Promise<void>, dependencies: string[] = []) {
  return fp<AppDeps>(async (app, deps) => register(app, deps), { name, dependencies: [REQUEST_CONTEXT, ...dependencies] });
}

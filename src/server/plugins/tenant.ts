import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SUBDOMAIN_COOKIE, SUBDOMAIN_HEADER } from '../../shared/domain/http';
import type { AppDeps } from '../deps';
import type { TenantRow } from '../db/rows';
import { tenants } from '../db/schema';
import { notFound } from '../errors';
import { createTtlCache } from '../ttlCache';

/** What a subdomain can look like (a DNS label); anything else cannot name a tenant. */
const SUBDOMAIN_PATTERN = /^[a-z0-9-]{1,63}$/;

declare module 'fastify' {
  interface FastifyRequest {
    tenant: TenantRow;
  }
  interface FastifyInstance {
    /** Drops this process's copy of a tenant's row after a write to it, so the next request reads it again. */
    forgetTenant(tenant: Pick<TenantRow, 'subdomain'>): void;
  }
}

/** The tenant a request names: `x-subdomain` header, else the `subdomain` cookie, else the default. */
export function requestedSubdomain(request: FastifyRequest, defaultTenant: string): string {
  const header = request.headers[SUBDOMAIN_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const chosen = fromHeader?.trim() || request.cookies[SUBDOMAIN_COOKIE]?.trim() || defaultTenant;
  return chosen.toLowerCase();
}

/**
 * Resolves the tenant of every request in this scope (DEFAULT_TENANT when it names none); an
 * unknown tenant answers 404. Known tenants are kept AUTH_CACHE_TTL_SECONDS (frozen: requests share
 * the row); unknown ones are not, so a new tenant works at once and made-up subdomains cannot fill
 * the cache.
 */
export function registerTenantResolution(app: FastifyInstance, { db, config }: Pick<AppDeps, 'db' | 'config'>): void {
  const defaultTenant = config.DEFAULT_TENANT;
  const cache = createTtlCache<string, TenantRow>(config.AUTH_CACHE_TTL_SECONDS * 1000);
  const load = async (subdomain: string) => {
    const [tenant] = await db.select().from(tenants).where(eq(tenants.subdomain, subdomain)).limit(1);
    if (!tenant) throw notFound('Unknown tenant.');
    return Object.freeze(tenant);
  };
  app.decorateRequest('tenant', null as unknown as TenantRow);
  app.decorate('forgetTenant', (tenant: Pick<TenantRow, 'subdomain'>) => cache.delete(tenant.subdomain));
  app.addHook('onRequest', async (request) => {
    const subdomain = requestedSubdomain(request, defaultTenant);
    // Checked before the query: a cookie may carry anything, a NUL byte included.
    if (!SUBDOMAIN_PATTERN.test(subdomain)) throw notFound('Unknown tenant.');
    request.tenant = await cache.get(subdomain, () => load(subdomain));
  });
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ASSETS_DIR } from '../paths';
import { API_PREFIX } from '../../shared/domain/http';

export const ASSETS_PATH = `${API_PREFIX}/assets`;

/**
 * Images the server itself provides (the demo tenant's logo). Public: tenant data needs no login.
 * They may be embedded from another origin (the desktop renderer shows them from `app://bundle`),
 * so they opt out of the same-origin resource policy the other responses carry.
 */
export function registerAssetRoutes(app: FastifyInstance): void {
  const svgs = new Map(
    readdirSync(ASSETS_DIR)
      .filter((name) => name.endsWith('.svg'))
      .map((name) => [name, readFileSync(join(ASSETS_DIR, name))]),
  );
  app.get<{ Params: { name: string } }>(
    `${ASSETS_PATH}/:name`,
    { schema: { hide: true }, helmet: { crossOriginResourcePolicy: { policy: 'cross-origin' } } },
    async (request, reply) => {
      const svg = svgs.get(request.params.name);
      if (!svg) return reply.callNotFound();
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );
}

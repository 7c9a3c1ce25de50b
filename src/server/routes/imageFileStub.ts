import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { files } from '../db/schema';
import { notFound } from '../errors';
import type { FileStore } from '../storage/fileStore';

/**
 * TEMPORARY until the files branch is merged, which brings the real `GET /files/{id}/` (its
 * contract, access rules and public variant): serves a member's own files so generated images show
 * in this branch. Hidden from OpenAPI. On merge, delete this file and its line in app.ts.
 */
export function registerImageFileStub(app: FastifyInstance, db: Database, store: FileStore): void {
  app.get('/files/:id/', { schema: { hide: true }, onRequest: (request) => request.server.authenticate(request) }, async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const member = request.member;
    if (!member || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw notFound();
    const [file] = await db
      .select()
      .from(files)
      .where(and(eq(files.tenantId, member.tenantId), eq(files.memberId, member.id), eq(files.id, id)));
    const stored = file ? await store.get(file.storageKey) : null;
    if (!file || !stored) throw notFound();
    return reply.type(file.mimeType).header('content-length', stored.size).header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`).send(stored.body);
  });
}

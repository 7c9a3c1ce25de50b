import fastifyMultipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UPLOAD_FIELD, deleteFile, getFile, getFileProgress, getPublicFile, getSharedSessionFile, uploadFiles } from '../../../shared/api/files';
import { AppError } from '../../errors';
import * as filesService from './service';
import * as publicSessions from '../publicSessions/service';
import { type FileDownload, type FileLimits, MAX_FILES_PER_MESSAGE, fileLimitsFor } from './service';
import { RESPONSE_WRITTEN, registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';
import { contentDisposition } from '../../shared/contentDisposition';

const MAX_FIELDS = 20;

export function sendFile(reply: FastifyReply, file: FileDownload): typeof RESPONSE_WRITTEN {
  reply
    .header('content-type', file.mime)
    .header('content-length', file.size)
    .header('content-disposition', contentDisposition(file.name, file.mime.startsWith('image/') ? 'inline' : 'attachment'))
    .header('cache-control', 'private, no-store')
    // An uploaded HTML or text file opened directly must not run as a page of this origin.
    .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  void reply.send(file.body);
  return RESPONSE_WRITTEN;
}

/** A multipart stream the parser refused: sizes are 413 like the file checks, the rest malformed input. */
function multipartFailure(error: FastifyError): AppError {
  if (error.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(413, 'file_too_large', 'The file is too large.');
  if (error.code === 'FST_FILES_LIMIT') return new AppError(422, 'validation_error', `A message can carry at most ${MAX_FILES_PER_MESSAGE} files.`);
  return new AppError(400, 'bad_request', 'The upload is not valid multipart/form-data.');
}

/** Reads a multipart upload: its text fields and its `files` parts, within the tenant's size limit. */
export async function readUpload(request: FastifyRequest, limits: FileLimits): Promise<{ fields: Record<string, string>; parts: filesService.UploadedPart[] }> {
  if (!request.isMultipart()) throw new AppError(400, 'bad_request', 'Send the files as multipart/form-data.');
  const fields: Record<string, string> = {};
  const parts: filesService.UploadedPart[] = [];
  try {
    const stream = request.parts({ limits: { fileSize: limits.maxBytes, files: MAX_FILES_PER_MESSAGE, fields: MAX_FIELDS, fieldSize: 4096 } });
    for await (const part of stream) {
      if (part.type === 'file') {
        // Held in memory up to the size limit: an Office file's type is read from the zip
        // directory at its end, so the bytes are checked whole before they are stored.
        const bytes = await part.toBuffer();
        if (part.fieldname === UPLOAD_FIELD) parts.push({ fileName: part.filename, claimedType: part.mimetype, bytes });
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw multipartFailure(error as FastifyError);
  }
  return { fields, parts };
}

/** Registers routes that take multipart bodies in a scope of their own: every other route keeps refusing them. */
export function registerMultipartRoutes(app: FastifyInstance, register: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart);
    register(scope);
  });
}

export const fileRoutes = domainRoutes('files', (app, deps) => {
  const { db } = deps;
  registerMultipartRoutes(app, (scope) =>
    registerEndpoint(scope, uploadFiles, async ({ tenant, requireMember, request }) => {
      const member = requireMember();
      const { fields, parts } = await readUpload(request, fileLimitsFor(deps.config, tenant));
      return { items: (await filesService.uploadFiles(deps, tenant, member, fields, parts)).map(filesService.toChatFile) };
    }),
  );

  registerEndpoint(app, getFileProgress, async ({ query, requireMember }) => ({ items: await filesService.fileProgress(db, requireMember(), query.file_ids) }));
  registerEndpoint(app, getFile, async ({ params, requireMember, reply }) =>
    sendFile(reply, await filesService.downloadOwnFile(deps, requireMember(), params.id)),
  );
  registerEndpoint(app, getPublicFile, async ({ params, tenant, reply }) =>
    sendFile(reply, await filesService.downloadPublicFile(deps, tenant, params.hash, params.id)),
  );
  registerEndpoint(app, getSharedSessionFile, async ({ params, tenant, reply }) =>
    sendFile(reply, await publicSessions.downloadSharedSessionFile(deps, tenant, params.hash, params.id)),
  );
  registerEndpoint(app, deleteFile, async ({ params, requireMember }) => {
    await filesService.deleteFile(deps, requireMember(), params.id);
    return { ok: true as const };
  });
});

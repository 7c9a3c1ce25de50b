/**
 * Chat files: upload (limits of spec §8), the owner's download, the public download rule, delete,
 * parsing progress, and the background job that extracts a document's text into `file_sections`.
 */
import type { AppDeps } from '../../deps';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, eq, inArray, lt, notExists, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { buildPath } from '../../../shared/api/endpoint';
import { type ChatFile, type FileProgress, getSharedSessionFile, uploadOptionsSchema } from '../../../shared/api/files';
import { API_PREFIX } from '../../../shared/domain/http';
import { FILE_KINDS, FILE_NAME_MAX, type FileKind, IMAGE_KINDS } from '../../../shared/domain/files';
import type { ServerConfig } from '../../config';
import type { Database } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { indexFile } from '../../retrieval';
import { chatbotDocuments, chatbots, fileSections, files, sessionMessageFiles, sessions } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../errors';
import { CorruptFileError, DocumentLimitError } from '../../storage/documentErrors';
import type { ExtractLimits } from '../../storage/extractText';
import type { FileStore } from '../../storage/fileStore';
import { UnsupportedFileTypeError, checkFileType } from '../../storage/fileType';
import type { DocumentPool } from '../../workers/documentPool';
import { findVisibleChatbot } from '../chatbots/service';

export type FileRow = typeof files.$inferSelect;

/** What a tenant may upload (config defaults, overridden by the tenant's `file_limits`). */
export interface FileLimits {
  maxBytes: number;
  maxPages: number;
  allowedKinds: FileKind[];
}

/** Files one message may carry (the ones already attached plus a new upload). */
export const MAX_FILES_PER_MESSAGE = 10;

/**
 * Large documents are parsed in part: at most this many pages (slides, sheets) and characters;
 * the percentage parsed tells the member how much the model can read.
 */
export const PARSE_LIMITS: ExtractLimits = { maxPages: 100, maxChars: 400_000 };

export function fileLimitsFor(config: ServerConfig, tenant: TenantRow): FileLimits {
  const configured = config.FILE_ALLOWED_KINDS.split(',').map((kind) => kind.trim());
  const defaults: FileLimits = {
    maxBytes: Math.floor(config.FILE_MAX_MB * 1024 * 1024),
    maxPages: config.FILE_MAX_PAGES,
    allowedKinds: FILE_KINDS.filter((kind) => configured.includes(kind)),
  };
  const own = tenant.fileLimits ?? {};
  return {
    maxBytes: own.max_bytes ?? defaults.maxBytes,
    maxPages: own.max_pages ?? defaults.maxPages,
    allowedKinds: own.allowed_kinds ?? defaults.allowedKinds,
  };
}

export interface UploadedPart {
  fileName: string;
  claimedType: string;
  bytes: Buffer;
}

/** Queues the parsing of an uploaded file (the job `defineFileJobs` defines). */
export type EnqueueParse = (fileId: number, owner: { tenantId: number; memberId: number }) => Promise<void>;

export type FileServiceDeps = Pick<AppDeps, 'db' | 'store' | 'rateLimits' | 'config' | 'documents' | 'enqueueParse'>;

export const fileUrl = (id: number) => `${API_PREFIX}/files/${id}/`;
/** A file of a chatbot read without a token (see downloadPublicFile). */
export const publicFileUrl = (chatbotHash: string, id: number) => `${API_PREFIX}/public/chatbots/${chatbotHash}/files/${id}/`;

export function toChatFile(row: FileRow): ChatFile {
  return {
    id: row.id,
    name: row.name,
    size: row.sizeBytes,
    type: row.mimeType,
    url: fileUrl(row.id),
    access_level: row.accessLevel,
    should_expire: row.shouldExpire,
    status: row.parseStatus,
    parsed_percentage: row.parsedPercentage ?? 0,
    created_at: row.createdAt.toISOString(),
  };
}

/** 429 with what spec §8 shows: `limit_count` files within `window_minutes`, the current count and when it resets. */
async function countUploads(deps: FileServiceDeps, member: MemberRow, count: number): Promise<void> {
  const limit = deps.config.FILE_UPLOAD_LIMIT;
  const windowMinutes = deps.config.FILE_UPLOAD_WINDOW_MINUTES;
  let hit = { count: 0, msLeft: 0 };
  for (let i = 0; i < count; i++) hit = await deps.rateLimits.hit(`file-upload:${member.tenantId}:${member.id}`, windowMinutes * 60_000);
  if (hit.count > limit) {
    const retryAfterSeconds = Math.max(1, Math.ceil(hit.msLeft / 1000));
    throw new AppError(429, 'rate_limited', `At most ${limit} files can be uploaded within ${windowMinutes} minutes.`, {
      limit_count: limit,
      window_minutes: windowMinutes,
      current_count: hit.count,
      reset_at: new Date(Date.now() + hit.msLeft).toISOString(),
      retry_after_seconds: retryAfterSeconds,
    });
  }
}

/** The checks of the options that name other rows: only the member's own files, sessions and visible chatbots (403). */
async function checkOptionTargets(db: Database, member: MemberRow, options: z.output<typeof uploadOptionsSchema>, newFiles: number) {
  if (options.chatbot_id) {
    await findVisibleChatbot(db, member, options.chatbot_id).catch(() => {
      throw forbidden('You may not upload files to this chatbot.');
    });
  }
  if (options.session_id) {
    const [session] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.tenantId, member.tenantId), eq(sessions.memberId, member.id), eq(sessions.id, options.session_id)));
    if (!session) throw forbidden('You may not upload files to this session.');
  }
  const attached = options.attached_file_ids ?? [];
  if (attached.length > 0) {
    const own = await db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.tenantId, member.tenantId), eq(files.memberId, member.id), inArray(files.id, attached)));
    if (own.length !== attached.length) throw forbidden('An attached file is not yours.');
  }
  if (attached.length + newFiles > MAX_FILES_PER_MESSAGE) {
    throw new AppError(422, 'validation_error', `A message can carry at most ${MAX_FILES_PER_MESSAGE} files.`, { max_files: MAX_FILES_PER_MESSAGE });
  }
}

interface CheckedPart extends UploadedPart {
  kind: FileKind;
  mime: string;
}

/**
 * The spec §8 upload status of a document the readers refused: 400 damaged, 413 over a parsing
 * budget (it would inflate or decode past what one file is given, or its parse ran out of memory
 * or time); null for any other error.
 */
export function documentRefusal(error: unknown, details: Record<string, unknown> = {}): AppError | null {
  if (error instanceof CorruptFileError) return new AppError(400, 'file_corrupted', 'The file is damaged and cannot be read.', details);
  if (error instanceof DocumentLimitError)
    return new AppError(413, 'file_too_large', `The file is too large to read: ${error.message}.`, { ...details, limit: error.limit });
  return null;
}

/** Spec §8 upload statuses for one file: 422 name, 413 size, pages or parsing budget, 415 format (by content), 400 corrupted. */
async function checkPart(documents: DocumentPool, part: UploadedPart, limits: FileLimits): Promise<CheckedPart> {
  const name = part.fileName.trim();
  if (name.length < 1 || name.length > FILE_NAME_MAX) {
    throw new AppError(422, 'validation_error', `A file name must be 1 to ${FILE_NAME_MAX} characters long.`);
  }
  if (part.bytes.length > limits.maxBytes) {
    throw new AppError(413, 'file_too_large', 'The file is too large.', { name, max_bytes: limits.maxBytes });
  }
  let checked;
  let pages: number | null;
  try {
    checked = checkFileType(part.bytes, { fileName: name, claimedType: part.claimedType, accept: limits.allowedKinds });
    // In a parsing process, within the parse job's budgets: a bomb is refused here rather than in the job.
    pages = await documents.countPages(part.bytes, checked.kind);
  } catch (error) {
    if (error instanceof UnsupportedFileTypeError)
      throw new AppError(415, 'unsupported_file_type', error.message, { name, allowed_kinds: limits.allowedKinds });
    throw documentRefusal(error, { name }) ?? error;
  }
  if (pages !== null && pages > limits.maxPages) {
    throw new AppError(413, 'too_many_pages', 'The document has too many pages.', { name, pages, max_pages: limits.maxPages });
  }
  return { ...part, fileName: name, kind: checked.kind, mime: checked.mime };
}

/**
 * Stores the uploaded files after every check passed for all of them (one bad file refuses the
 * upload), then queues the parsing of documents. Images need no parsing.
 */
export async function uploadFiles(
  deps: FileServiceDeps,
  tenant: TenantRow,
  member: MemberRow,
  fields: Record<string, string>,
  parts: UploadedPart[],
  { documentsOnly = false }: { documentsOnly?: boolean } = {},
): Promise<FileRow[]> {
  const parsedOptions = uploadOptionsSchema.safeParse(fields);
  if (!parsedOptions.success) {
    throw new AppError(422, 'validation_error', 'The upload options are invalid.', {
      issues: parsedOptions.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  const options = parsedOptions.data;
  if (parts.length === 0) throw new AppError(422, 'validation_error', 'Choose at least one file to upload.');
  await checkOptionTargets(deps.db, member, options, parts.length);
  await countUploads(deps, member, parts.length);

  const tenantLimits = fileLimitsFor(deps.config, tenant);
  // A chatbot's knowledge is text to search: pictures are refused there (415).
  const limits = documentsOnly ? { ...tenantLimits, allowedKinds: tenantLimits.allowedKinds.filter((kind) => !IMAGE_KINDS.includes(kind)) } : tenantLimits;
  const checked: CheckedPart[] = [];
  for (const part of parts) checked.push(await checkPart(deps.documents, part, limits));

  const stored: FileRow[] = [];
  for (const part of checked) {
    const storageKey = `tenants/${tenant.id}/files/${randomUUID()}`;
    await deps.store.put(storageKey, part.bytes, { contentType: part.mime });
    const isImage = IMAGE_KINDS.includes(part.kind);
    const [row] = await deps.db
      .insert(files)
      .values({
        tenantId: tenant.id,
        memberId: member.id,
        name: part.fileName,
        mimeType: part.mime,
        sizeBytes: part.bytes.length,
        storageKey,
        accessLevel: options.access_level,
        shouldExpire: options.should_expire,
        expiresAt: options.should_expire ? new Date(Date.now() + deps.config.FILE_UNSENT_EXPIRY_HOURS * 3_600_000) : null,
        chatbotId: options.chatbot_id ?? null,
        sessionId: options.session_id ?? null,
        parseStatus: isImage ? 'parsed' : 'parsing',
        parsedPercentage: isImage ? 100 : 0,
      })
      .returning();
    if (!row) throw new Error('File insert returned no row');
    if (!isImage) await deps.enqueueParse(row.id, { tenantId: tenant.id, memberId: member.id });
    stored.push(row);
  }
  await purgeExpiredFiles(deps, tenant.id).catch(() => undefined);
  return stored;
}

/** Expired files swept per upload: enough to keep up, never a long pause for the uploader. */
const PURGE_BATCH = 20;

/**
 * Deletes the tenant's expired uploads that were never sent in a message nor made a chatbot
 * document: files left in a composer. Sent files belong to their conversation and stay. Runs after
 * each upload of the tenant (best effort), so no schedule is needed.
 */
export async function purgeExpiredFiles({ db, store }: Pick<AppDeps, 'db' | 'store'>, tenantId: number): Promise<number> {
  const expired = await db
    .select({ id: files.id, storageKey: files.storageKey })
    .from(files)
    .where(
      and(
        eq(files.tenantId, tenantId),
        lt(files.expiresAt, sql`now()`),
        notExists(
          db
            .select({ one: sql`1` })
            .from(sessionMessageFiles)
            .where(eq(sessionMessageFiles.fileId, files.id)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(chatbotDocuments)
            .where(eq(chatbotDocuments.fileId, files.id)),
        ),
      ),
    )
    .limit(PURGE_BATCH);
  if (expired.length === 0) return 0;
  await db.delete(files).where(
    inArray(
      files.id,
      expired.map((row) => row.id),
    ),
  );
  for (const row of expired) await store.delete(row.storageKey);
  return expired.length;
}

export interface FileDownload {
  body: Readable;
  size: number;
  mime: string;
  name: string;
}

/** A stored file's bytes as a download (404 when the store lost them). */
export async function openStored(store: FileStore, row: FileRow): Promise<FileDownload> {
  const stored = await store.get(row.storageKey);
  if (!stored) throw notFound();
  return { body: stored.body, size: stored.size, mime: row.mimeType, name: row.name };
}

/** The owner's download; anyone else's (or a missing file) answers 404, so ids reveal nothing. */
export async function downloadOwnFile({ db, store }: Pick<AppDeps, 'db' | 'store'>, member: MemberRow, id: number): Promise<FileDownload> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, member.tenantId), eq(files.memberId, member.id), eq(files.id, id)));
  if (!row) throw notFound();
  return openStored(store, row);
}

/** Who may read a file without signing in at all: one uploaded (or generated) as `public`. */
export const publicAccessLevel = eq(files.accessLevel, 'public');

/**
 * The public rule (docs/decisions/0043-chat-files.md): without signing in, a file of a chatbot is
 * readable only when its access level is public and it is either the chatbot's profile picture (an
 * <img> sends no token, and the Studio shows it before the chatbot is public) or a document of that
 * chatbot while the chatbot is public. Session files have their own path (sharedSessionFileUrl):
 * a chatbot's hash must not open every shared session of it to whoever counts file ids.
 */
export async function downloadPublicFile(
  { db, store }: Pick<AppDeps, 'db' | 'store'>,
  tenant: TenantRow,
  chatbotHash: string,
  id: number,
): Promise<FileDownload> {
  const [chatbot] = await db
    .select({ id: chatbots.id, isPublic: chatbots.isPublic, profileImageFileId: chatbots.profileImageFileId })
    .from(chatbots)
    .where(and(eq(chatbots.tenantId, tenant.id), or(eq(chatbots.hashId, chatbotHash), eq(chatbots.publicHashId, chatbotHash))));
  if (!chatbot) throw notFound();
  const isProfilePicture = chatbot.profileImageFileId === id;
  if (!isProfilePicture && !chatbot.isPublic) throw notFound();
  const document = db
    .select({ one: sql`1` })
    .from(chatbotDocuments)
    .where(and(eq(chatbotDocuments.chatbotId, chatbot.id), eq(chatbotDocuments.fileId, files.id)));
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenant.id), eq(files.id, id), publicAccessLevel, isProfilePicture ? undefined : sql`exists ${document}`));
  if (!row) throw notFound();
  return openStored(store, row);
}

/** Where a visitor of a shared session reads one of its files (publicSessions.downloadSharedSessionFile). */
export const sharedSessionFileUrl = (sessionHash: string, id: number) => `${API_PREFIX}${buildPath(getSharedSessionFile.path, { hash: sessionHash, id })}`;

/** Spec §8 delete: 404 unknown, 403 someone else's, 422 already sent in a message (the history shows it). */
export async function deleteFile({ db, store }: Pick<AppDeps, 'db' | 'store'>, member: MemberRow, id: number): Promise<void> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, member.tenantId), eq(files.id, id)));
  if (!row) throw notFound();
  if (row.memberId !== member.id) throw forbidden('You may only delete your own files.');
  const [sent] = await db.select({ id: sessionMessageFiles.messageId }).from(sessionMessageFiles).where(eq(sessionMessageFiles.fileId, id)).limit(1);
  if (sent) throw new AppError(422, 'file_in_use', 'The file was sent in a message and stays with the conversation.');
  await db.delete(files).where(eq(files.id, id));
  await store.delete(row.storageKey);
}

export async function fileProgress(db: Database, member: MemberRow, ids: number[]): Promise<FileProgress[]> {
  const rows = await db
    .select({ id: files.id, status: files.parseStatus, percentage: files.parsedPercentage })
    .from(files)
    .where(and(eq(files.tenantId, member.tenantId), eq(files.memberId, member.id), inArray(files.id, ids)))
    .orderBy(asc(files.id));
  return rows.map((row) => ({ id: row.id, status: row.status, parsed_percentage: row.percentage ?? 0 }));
}

const parsePayload = z.object({ fileId: z.number().int() });

/** Percentage steps worth a write while parsing (every page of a long PDF would be many). */
const PROGRESS_STEP = 5;

type ParseDeps = Pick<AppDeps, 'db' | 'store' | 'documents' | 'log' | 'embedder'>;

/**
 * Extracts a document's text into `file_sections` (in the worker pool), writing the percentage
 * parsed as it goes. Idempotent (a retry replaces the sections). A document that is damaged or goes
 * over a budget ends as `failed`, which the Files UI shows as "could not be read".
 */
export async function parseFile(deps: ParseDeps, fileId: number, tenantId: number): Promise<{ sections: number; percentage: number } | null> {
  const { db, store, documents, log } = deps;
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.tenantId, tenantId)));
  if (!row) return null;
  const stored = await store.get(row.storageKey);
  if (!stored) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  let written = 0;
  try {
    const kind = checkFileType(bytes, { fileName: row.name }).kind;
    const extraction = await documents.extractText(bytes, kind, row.mimeType, PARSE_LIMITS, async (percentage) => {
      if (percentage - written < PROGRESS_STEP) return;
      written = percentage;
      await db.update(files).set({ parsedPercentage: percentage }).where(eq(files.id, fileId));
    });
    await db.transaction(async (tx) => {
      await tx.delete(fileSections).where(eq(fileSections.fileId, fileId));
      if (extraction.sections.length > 0) {
        await tx.insert(fileSections).values(
          extraction.sections.map((section, ordinal) => ({
            tenantId,
            fileId,
            ordinal,
            page: section.page ?? null,
            heading: section.heading ?? null,
            text: section.text,
          })),
        );
      }
    });
    // Passages for retrieval, rebuilt from the new sections (a retry must not leave stale ones),
    // before the file shows as parsed: a question asked as soon as it does must find them.
    await indexFile(deps, fileId);
    await db.update(files).set({ parseStatus: 'parsed', parsedPercentage: extraction.percentage }).where(eq(files.id, fileId));
    return { sections: extraction.sections.length, percentage: extraction.percentage };
  } catch (error) {
    if (!(error instanceof CorruptFileError || error instanceof DocumentLimitError)) throw error;
    log?.warn({ fileId, tenantId, reason: error.message }, 'a document could not be parsed');
    await db.update(files).set({ parseStatus: 'failed' }).where(eq(files.id, fileId));
    return { sections: 0, percentage: 0 };
  }
}

/** Defines the parse job on the queue (before it starts); returns how to queue a file. */
export function defineFileJobs(deps: ParseDeps & Pick<AppDeps, 'jobs'>): EnqueueParse {
  const { jobs } = deps;
  const parse = jobs.define(
    'files.parse',
    parsePayload,
    async ({ fileId }, context) => {
      try {
        return await parseFile(deps, fileId, context.tenantId);
      } catch (error) {
        // The last attempt leaves the file failed instead of parsing forever.
        if (context.attempt >= 1) await deps.db.update(files).set({ parseStatus: 'failed' }).where(eq(files.id, fileId));
        throw error;
      }
    },
    { retryLimit: 1, retryDelaySeconds: 5 },
  );
  return async (fileId, owner) => {
    await jobs.enqueue(parse, { fileId }, owner);
  };
}

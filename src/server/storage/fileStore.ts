/**
 * One interface for uploaded files: local disk (FILES_DIR, one server process) or any S3-compatible
 * store (S3_BUCKET, any number of processes). Keys are chosen by the server (e.g.
 * `tenants/12/documents/<uuid>`), validated here so no key can leave the store's root. File names,
 * types and owners live in the database; the store only keeps bytes (and the type for S3, so a
 * presigned or CDN URL serves it right).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ServerConfig } from '../config';

export interface StoredFile {
  body: Readable;
  size: number;
}

export interface FileStore {
  readonly kind: 'local' | 's3';
  /** Writes the whole file or nothing: a reader never sees a partial file. Replaces an existing one. */
  put(key: string, body: Buffer | Readable, options: { contentType: string }): Promise<void>;
  /** null when there is no such file. */
  get(key: string): Promise<StoredFile | null>;
  /** Deleting a missing file is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export class InvalidStorageKeyError extends Error {
  override name = 'InvalidStorageKeyError';
}

const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

/** Segments of letters, digits, `._-`, none starting with a dot: no `..`, no absolute path, no hidden file. */
export function assertValidStorageKey(key: string): void {
  const valid = key.length > 0 && key.length <= MAX_KEY_LENGTH && key.split('/').every((segment) => KEY_SEGMENT.test(segment));
  if (!valid) throw new InvalidStorageKeyError(`invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
}

/** ENOTDIR: a key below another key's file (`a.txt/b`) does not exist either. */
const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

export function createLocalFileStore(rootDir: string): FileStore {
  const root = resolve(rootDir);
  // Beside the files, and hidden (no key may start with a dot), so a rename stays on one file system.
  const partialDir = join(root, '.partial');
  const pathOf = (key: string) => {
    assertValidStorageKey(key);
    const path = resolve(root, key);
    // Unreachable with a valid key; kept so a future change to the key rule cannot open the disk.
    if (!path.startsWith(root + sep)) throw new InvalidStorageKeyError(`invalid storage key: ${JSON.stringify(key)}`);
    return path;
  };

  return {
    kind: 'local',
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(partialDir, { recursive: true });
      const partial = join(partialDir, randomBytes(12).toString('hex'));
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(partial));
        await mkdir(dirname(path), { recursive: true });
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        return { body: createReadStream(path), size: info.size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      const path = pathOf(key);
      await rm(path, { force: true });
    },
    async exists(key) {
      const path = pathOf(key);
      try {
        return (await stat(path)).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** Any S3-compatible endpoint; undefined: AWS itself. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** undefined: the SDK's default chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

export function createS3FileStore({ bucket, region, endpoint, forcePathStyle, credentials }: S3Settings): FileStore {
  const client = new S3Client({
    region,
    endpoint,
    forcePathStyle,
    credentials,
    // Checksums only where S3 requires them: many S3-compatible stores reject the newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  return {
    kind: 's3',
    async put(key, body, { contentType }) {
      assertValidStorageKey(key);
      // Upload sends one PutObject for small bodies and a multipart upload for large or unknown-length streams.
      await new Upload({ client, params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType } }).done();
    },
    async get(key) {
      assertValidStorageKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertValidStorageKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async exists(key) {
      assertValidStorageKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  };
}

/** The store the configuration describes: S3 when S3_BUCKET is set, else local disk in FILES_DIR. */
export function createFileStore(config: ServerConfig): FileStore {
  if (!config.S3_BUCKET) return createLocalFileStore(config.FILES_DIR);
  return createS3FileStore({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
  });
}

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
import type { S3ServiceException } from '@aws-sdk/client-s3';
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

/**
 * The AWS SDK, loaded with the first S3 call: it is a tenth of a second and some 30 MiB of every
 * server start otherwise, and only a process with S3_BUCKET uses it.
 */
async function loadS3(settings: S3Settings) {
  const [sdk, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  const client = new sdk.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: many S3-compatible stores reject the newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const isNotFound = (error: unknown): error is S3ServiceException =>
    error instanceof sdk.S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
  return { sdk, Upload, client, isNotFound };
}

export function createS3FileStore(settings: S3Settings): FileStore {
  const { bucket } = settings;
  let loaded: ReturnType<typeof loadS3> | undefined;
  const s3 = () => (loaded ??= loadS3(settings));

  return {
    kind: 's3',
    async put(key, body, { contentType }) {
      assertValidStorageKey(key);
      // Upload sends one PutObject for small bodies and a multipart upload for large or unknown-length streams.
      const { Upload, client } = await s3();
      await new Upload({ client, params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType } }).done();
    },
    async get(key) {
      assertValidStorageKey(key);
      const { sdk, client, isNotFound } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertValidStorageKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async exists(key) {
      assertValidStorageKey(key);
      const { sdk, client, isNotFound } = await s3();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }));
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

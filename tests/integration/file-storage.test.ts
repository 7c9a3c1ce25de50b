import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/server/config';
import { type FileStore, InvalidStorageKeyError, createFileStore, createLocalFileStore } from '../../src/server/storage/fileStore';
import { UnsupportedFileTypeError, checkFileType, detectFileType } from '../../src/server/storage/fileType';
import { type FakeS3, startFakeS3 } from '../fixtures/fakeS3';
import { sampleDocx, samplePdf, samplePng, zipArchive } from '../fixtures/sampleFiles';

const HOSTILE_KEYS = ['../outside', 'a/../../outside', '/etc/passwd', 'a//b', '.hidden', 'a/.partial/x', 'a\\..\\b', 'a/b/', '', 'x'.repeat(513), 'a\u0000b'];

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What every store must do, whichever backend it is. */
function behavesAsFileStore(storeOf: () => FileStore) {
  it('stores, reads back, reports and deletes a file', async () => {
    const store = storeOf();
    const png = samplePng();
    const key = 'tenants/1/documents/logo.png';
    expect(await store.exists(key)).toBe(false);
    expect(await store.get(key)).toBeNull();

    await store.put(key, png, { contentType: 'image/png' });
    expect(await store.exists(key)).toBe(true);
    const stored = await store.get(key);
    expect(stored?.size).toBe(png.length);
    expect(await bytesOf(stored!.body)).toEqual(png);

    await store.delete(key);
    expect(await store.exists(key)).toBe(false);
    await store.delete(key); // deleting again is fine
  });

  it('takes a stream and replaces an existing file', async () => {
    const store = storeOf();
    const key = 'tenants/2/exports/members.csv';
    await store.put(key, Buffer.from('old'), { contentType: 'text/csv' });
    await store.put(key, Readable.from(['name,email\n', 'Kim,kim@example.test\n']), { contentType: 'text/csv' });
    expect(await text((await store.get(key))!.body)).toBe('name,email\nKim,kim@example.test\n');
  });

  it('refuses keys that could leave the store', async () => {
    const store = storeOf();
    for (const key of HOSTILE_KEYS) {
      await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toThrow(InvalidStorageKeyError);
      await expect(store.get(key), key).rejects.toThrow(InvalidStorageKeyError);
      await expect(store.exists(key), key).rejects.toThrow(InvalidStorageKeyError);
      await expect(store.delete(key), key).rejects.toThrow(InvalidStorageKeyError);
    }
  });
}

describe('local file store', () => {
  let base: string;
  let root: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'files-'));
    root = join(base, 'files');
    await writeFile(join(base, 'outside'), 'secret beside the store');
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  behavesAsFileStore(() => createLocalFileStore(root));

  it('keeps files under FILES_DIR and leaves nothing behind when a stream fails', async () => {
    const store = createFileStore(testConfig({ FILES_DIR: root }));
    expect(store.kind).toBe('local');
    await store.put('a/b.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    expect(await readdir(join(root, 'a'))).toEqual(['b.txt']);
    expect(await store.get('a/b.txt/c')).toBeNull();
    expect(await store.exists('a/b.txt/c')).toBe(false);

    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('a/broken.txt', failing, { contentType: 'text/plain' })).rejects.toThrow('client went away');
    expect(await store.exists('a/broken.txt')).toBe(false);
    expect(await readdir(join(root, '.partial'))).toEqual([]);
  });
});

describe('S3 file store against an S3-compatible server', () => {
  let s3: FakeS3;
  let store: FileStore;
  beforeAll(async () => {
    s3 = await startFakeS3();
    store = createFileStore(
      testConfig({
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: true,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      }),
    );
  });
  afterAll(async () => {
    await s3.close();
  });

  behavesAsFileStore(() => store);

  it('is chosen by S3_BUCKET, addresses objects path-style and sends the content type', async () => {
    expect(store.kind).toBe('s3');
    await store.put('tenants/3/report.pdf', samplePdf(), { contentType: 'application/pdf' });
    expect(s3.requests.some((r) => r.startsWith(`PUT /${s3.bucket}/tenants/3/report.pdf`))).toBe(true);
    expect(s3.objects.get('tenants/3/report.pdf')?.contentType).toBe('application/pdf');
  });

  it('uploads a large stream of unknown length in parts', async () => {
    const large = randomBytes(11 * 1024 * 1024);
    const chunks = Array.from({ length: 11 }, (_, i) => large.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024));
    await store.put('tenants/3/large.bin', Readable.from(chunks), { contentType: 'application/octet-stream' });
    expect(s3.requests.some((r) => r.startsWith(`POST /${s3.bucket}/tenants/3/large.bin?uploads`))).toBe(true);
    expect((await bytesOf((await store.get('tenants/3/large.bin'))!.body)).equals(large)).toBe(true);
  });

  it('fails loudly with credentials the store refuses', async () => {
    const wrong = createFileStore(
      testConfig({ S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: true, S3_ACCESS_KEY_ID: 'someone-else', S3_SECRET_ACCESS_KEY: 'x' }),
    );
    await expect(wrong.exists('tenants/3/report.pdf')).rejects.toThrow();
    await expect(wrong.put('tenants/3/x.txt', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow();
    expect(s3.objects.has('tenants/3/x.txt')).toBe(false);
  });
});

describe('file types from content', () => {
  const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
  const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);
  const xlsx = zipArchive({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' });
  const pptx = zipArchive({ '[Content_Types].xml': '<Types/>', 'ppt/presentation.xml': '<presentation/>' });

  it('recognises images, PDF, Office documents and UTF-8 text by their bytes', () => {
    expect(detectFileType(samplePng())).toBe('png');
    expect(detectFileType(jpeg)).toBe('jpeg');
    expect(detectFileType(gif)).toBe('gif');
    expect(detectFileType(webp)).toBe('webp');
    expect(detectFileType(samplePdf())).toBe('pdf');
    expect(detectFileType(sampleDocx())).toBe('docx');
    expect(detectFileType(xlsx)).toBe('xlsx');
    expect(detectFileType(pptx)).toBe('pptx');
    expect(detectFileType(Buffer.from('이름,이메일\r\n김,kim@example.test\n'))).toBe('text');
    expect(detectFileType(Buffer.from('# Title\n\n\tindented\n'))).toBe('text');
  });

  it('accepts none of: a plain zip, a damaged zip, binary bytes, invalid UTF-8, an empty file', () => {
    expect(detectFileType(zipArchive({ 'notes.txt': 'hi' }))).toBeNull();
    expect(detectFileType(sampleDocx().subarray(0, 200))).toBeNull();
    expect(detectFileType(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBeNull();
    expect(detectFileType(Buffer.from([0x61, 0xc3, 0x28]))).toBeNull();
    expect(detectFileType(Buffer.alloc(0))).toBeNull();
  });

  it('passes a file whose name and claimed type agree with its content, and gives the type to store', () => {
    expect(
      checkFileType(sampleDocx(), { fileName: 'Report.DOCX', claimedType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }),
    ).toEqual({
      kind: 'docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(checkFileType(jpeg, { fileName: 'photo.jpg', claimedType: 'image/jpeg' }).mime).toBe('image/jpeg');
    expect(checkFileType(samplePdf(), { fileName: 'a.pdf', claimedType: 'application/octet-stream' }).kind).toBe('pdf');
    expect(checkFileType(Buffer.from('a,b\n1,2\n'), { fileName: 'table.csv', claimedType: 'text/csv' }).mime).toBe('text/csv; charset=utf-8');
  });

  it('refuses a renamed file, a false claimed type and kinds the caller does not accept (415)', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error;
      }
      throw new Error('expected a refusal');
    };
    const renamed = refusal(() => checkFileType(samplePng(), { fileName: 'invoice.pdf', claimedType: 'application/pdf' }));
    expect(renamed).toBeInstanceOf(UnsupportedFileTypeError);
    expect(renamed).toMatchObject({ status: 415, detected: 'png', message: expect.stringContaining('.pdf') });

    expect(refusal(() => checkFileType(samplePdf(), { fileName: 'a.pdf', claimedType: 'image/png' }))).toMatchObject({ status: 415, detected: 'pdf' });
    expect(refusal(() => checkFileType(Buffer.from([0x4d, 0x5a, 0x90, 0, 3]), { fileName: 'setup.txt' }))).toMatchObject({ status: 415, detected: null });
    expect(refusal(() => checkFileType(samplePdf(), { fileName: 'a.pdf', accept: ['png', 'jpeg'] }))).toMatchObject({ status: 415, detected: 'pdf' });
    expect(refusal(() => checkFileType(Buffer.from('<svg/>'), { fileName: 'logo.svg' }))).toMatchObject({ status: 415, detected: 'text' });
  });
});

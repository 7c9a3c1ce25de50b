/**
 * A server process the member-transfer crash tests kill with SIGKILL. It builds the real app on a
 * PGlite directory, starts an export or an upload through the API as the demo admin, and stops in
 * the middle: the export once its first batch is in the file, the upload when the mail of its
 * second batch is half sent (that batch is committed, its invitations not all mailed). It prints
 * `{"task": id}` and then `{"stuck": true}`.
 * Usage: memberTransferWorker.ts <pglite dir> <files dir> export|upload [upload file path]
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { buildApp } from '../../../src/server/app';
import { testConfig } from '../../../src/server/config';
import { openPglite } from '../../../src/server/db/client';
import { DEMO_ADMIN } from '../../../src/server/db/seed';
import type { MailService } from '../../../src/server/mail/service';
import { createFileStore } from '../../../src/server/storage/fileStore';
import { fastJobSettings } from './crashJobs';

const [directory, filesDir, mode, uploadPath] = process.argv.slice(2);
if (!directory || !filesDir || (mode !== 'export' && mode !== 'upload')) throw new Error('usage: memberTransferWorker.ts <pglite dir> <files dir> export|upload [file]');

const never = () => new Promise<never>(() => {});
const report = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
const handle = await openPglite(directory);
const config = testConfig({ ...fastJobSettings, PORT: 0, HOST: '127.0.0.1', FILES_DIR: filesDir, AUTH_CACHE_TTL_SECONDS: 0 });
const realStore = createFileStore(config);

const files = {
  ...realStore,
  kind: realStore.kind,
  async put(key: string, body: Buffer | Readable, options: { contentType: string }) {
    if (mode !== 'export' || !key.includes('member-exports')) return realStore.put(key, body, options);
    // The header, then the first batch: progress has moved when this process stops.
    let chunks = 0;
    for await (const _chunk of body as Readable) if (++chunks === 2) break;
    report({ stuck: true });
    return never();
  },
};

let mailed = 0;
const mail: MailService = {
  async send() {
    mailed += 1;
    if (mailed === 150) report({ stuck: true });
    if (mailed >= 150) return never();
    return { via: 'outbox', id: `mail-${mailed}` };
  },
  close() {},
};

const app = await buildApp({ db: handle.db, config, files, mail });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
const signIn = await fetch(`${base}/auth/sign-in/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
  body: JSON.stringify(DEMO_ADMIN),
});
const token = ((await signIn.json()) as { access_token: string }).access_token;
let answer: Response;
if (mode === 'export') {
  answer = await fetch(`${base}/admin/members/export-task/?format=csv`, { headers: { 'x-access-token': token } });
} else {
  const form = new FormData();
  form.append('files', new Blob([readFileSync(uploadPath!)], { type: 'text/csv' }), 'members.csv');
  answer = await fetch(`${base}/admin/members/bulk-upload/`, { method: 'POST', headers: { 'x-access-token': token }, body: form });
}
const task = (await answer.json()) as { id: number };
report({ task: task.id });

/**
 * A server process the member-export crash test kills with SIGKILL. It builds the real app on a
 * PGlite directory, starts an export through the API as each demo account (the test has made both
 * admins), and stops each in the middle, once its first batch is in the file. It prints
 * `{"tasks": [id, …]}` and `{"stuck": true}` once per export.
 * (The upload's crash test kills the real server process: member-upload-crash.test.ts.)
 * Usage: memberTransferWorker.ts <pglite dir> <files dir>
 */
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { buildApp } from '../../../src/server/app';
import { testConfig } from '../../../src/server/config';
import { openPglite } from '../../../src/server/db/client';
import { DEMO_ADMIN, DEMO_MEMBER } from '../../../src/server/db/seed';
import { createFileStore } from '../../../src/server/storage/fileStore';
import { fastJobSettings } from './crashJobs';

const [directory, filesDir] = process.argv.slice(2);
if (!directory || !filesDir) throw new Error('usage: memberTransferWorker.ts <pglite dir> <files dir>');

const never = () => new Promise<never>(() => {});
const report = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);
const handle = await openPglite(directory);
// Its jobs carry their retry delay: the process that takes over runs them again at once.
const config = testConfig({ ...fastJobSettings, PORT: 0, HOST: '127.0.0.1', FILES_DIR: filesDir, AUTH_CACHE_TTL_SECONDS: 0, MEMBER_TRANSFER_RETRY_SECONDS: 0 });
const realStore = createFileStore(config);

const files = {
  ...realStore,
  kind: realStore.kind,
  async put(key: string, body: Buffer | Readable, options: { contentType: string }) {
    if (!key.includes('member-exports')) return realStore.put(key, body, options);
    // The header, then the first batch: progress has moved when this process stops.
    let chunks = 0;
    for await (const _chunk of body as Readable) if (++chunks === 2) break;
    report({ stuck: true });
    return never();
  },
};

const app = await buildApp({ db: handle.db, config, files });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
const tasks: number[] = [];
for (const account of [DEMO_ADMIN, DEMO_MEMBER]) {
  const signIn = await fetch(`${base}/auth/sign-in/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
    body: JSON.stringify(account),
  });
  const token = ((await signIn.json()) as { access_token: string }).access_token;
  const answer = await fetch(`${base}/admin/members/export-task/?format=csv`, { headers: { 'x-access-token': token } });
  tasks.push(((await answer.json()) as { id: number }).id);
}
report({ tasks });

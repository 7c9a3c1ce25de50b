import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundTasks } from '../../src/server/db/schema';
import { createFileStore } from '../../src/server/storage/fileStore';
import { csvLines } from '../../src/server/storage/spreadsheet';
import { DEMO_ADMIN, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { tenantIdOf, waitFor } from './helpers/memberTransfer';

const HOUR = 3_600_000;

describe('task file retention (MEMBER_EXPORT_RETENTION_HOURS)', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  // The server's clock; the test moves it past the retention.
  let now = new Date();

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now, config: { JOB_POLL_INTERVAL_SECONDS: 0.5, MEMBER_EXPORT_RETENTION_HOURS: 24 } });
    api = apiClient(server);
    admin = (await api.signIn(DEMO_ADMIN)).access_token;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  async function finished(taskId: number) {
    return waitFor(async () => {
      const task = (await api.call(`/tasks/${taskId}/`, { token: admin })).body;
      return task.status === 'running' ? undefined : task;
    }, `task ${taskId}`);
  }
  const exported = async () => finished((await api.call('/admin/members/export-task/?format=csv', { token: admin })).body.id);
  const download = (taskId: number) =>
    fetch(`${server.apiBase}/admin/members/export-task/${taskId}/download/`, { headers: { 'x-access-token': admin, 'x-subdomain': 'demo' } });
  const fileKeyOf = async (taskId: number) =>
    (await server.db.select({ key: backgroundTasks.fileKey }).from(backgroundTasks).where(eq(backgroundTasks.id, taskId)))[0]!.key;

  it(
    'deletes export and upload files past the retention; the expired download is 404 export_file_missing, a fresh export stays',
    { timeout: 120_000 },
    async () => {
      const store = createFileStore(server.config);
      const demo = await tenantIdOf(server.db, 'demo');
      const old = await exported();
      const oldKey = `tenants/${demo}/member-exports/${old.id}.csv`;
      expect(await fileKeyOf(old.id)).toBe(oldKey);
      expect(await store.exists(oldKey)).toBe(true);

      const form = new FormData();
      form.append(
        'files',
        new Blob([
          csvLines([
            ['name', 'email', 'default_member_group', 'Department'],
            ['Kept briefly', 'kept@retention.test', 'Default group', 'Eng'],
          ]),
        ]),
        'members.csv',
      );
      const uploadResponse = await fetch(`${server.apiBase}/admin/members/bulk-upload/`, {
        method: 'POST',
        headers: { 'x-access-token': admin, 'x-subdomain': 'demo' },
        body: form,
      });
      expect(uploadResponse.status).toBe(200);
      const upload = await finished(((await uploadResponse.json()) as { id: number }).id);
      expect(upload.status).toBe('completed');
      const uploadKey = (await fileKeyOf(upload.id))!;
      expect(uploadKey).toMatch(new RegExp(`^tenants/${demo}/member-uploads/`));
      expect(await store.exists(uploadKey)).toBe(true);

      // Not yet: within the retention nothing goes.
      now = new Date(Date.now() + 23 * HOUR);
      expect(await server.app.sweepTaskFiles()).toBe(0);
      expect((await download(old.id)).status).toBe(200);

      now = new Date(Date.now() + 25 * HOUR);
      const fresh = await exported();
      expect(await server.app.sweepTaskFiles()).toBe(2);

      const expired = await download(old.id);
      expect(expired.status).toBe(404);
      expect(((await expired.json()) as { code: string }).code).toBe('export_file_missing');
      expect(await store.exists(oldKey)).toBe(false);
      expect(await store.exists(uploadKey)).toBe(false);
      expect(await fileKeyOf(old.id)).toBeNull();
      expect(await fileKeyOf(upload.id)).toBeNull();
      // The upload's result is still readable: only its input file went.
      expect((await api.call(`/tasks/${upload.id}/`, { token: admin })).body).toMatchObject({ status: 'completed', result: { invited: 1 } });

      expect((await download(fresh.id)).status).toBe(200);
      expect(await store.exists(`tenants/${demo}/member-exports/${fresh.id}.csv`)).toBe(true);
      expect(await server.app.sweepTaskFiles()).toBe(0);
    },
  );
});

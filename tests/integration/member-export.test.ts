import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { testConfig } from '../../src/server/config';
import { type DatabaseHandle, openPglite } from '../../src/server/db/client';
import { backgroundTasks, customFields, members } from '../../src/server/db/schema';
import { seedDemoTenant } from '../../src/server/db/seed';
import { createFileStore } from '../../src/server/storage/fileStore';
import { detectFileType } from '../../src/server/storage/fileType';
import { parseCsv, readXlsxRows } from '../../src/server/storage/spreadsheet';
import { MEMBER_EXPORT_BATCH_SIZE, MEMBER_EXPORT_TASK } from '../../src/shared/domain/memberTransfer';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, migratedPglite, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { fastJobSettings } from './helpers/crashJobs';
import { ageDeadWorkersHeartbeats } from './helpers/deadWorker';
import { killWorkerMidway, memberIdOf, seedBulkMembers, settledTask, tenantIdOf, waitFor } from './helpers/memberTransfer';

/** Two full batches and a part of one: every batch boundary an export has, whatever the tenant's size. */
const BULK = 2.5 * MEMBER_EXPORT_BATCH_SIZE;

describe('member export (GET /admin/members/export-task/)', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let otherAdmin: string;
  let otherMember: string;
  let total: number;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['other'], config: { JOB_POLL_INTERVAL_SECONDS: 0.5 } });
    api = apiClient(server);
    await seedBulkMembers(server.db, await tenantIdOf(server.db, 'demo'), BULK);
    total = BULK + 2; // the demo admin and member
    admin = (await api.signIn(DEMO_ADMIN)).access_token;
    otherAdmin = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
    otherMember = (await api.signIn(DEMO_MEMBER, 'other')).access_token;
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  async function download(taskId: number, token = admin, tenant = 'demo') {
    return fetch(`${server.apiBase}/admin/members/export-task/${taskId}/download/`, { headers: { 'x-access-token': token, 'x-subdomain': tenant } });
  }

  async function finished(taskId: number, token = admin, tenant = 'demo') {
    return waitFor(async () => {
      const task = (await api.call(`/tasks/${taskId}/`, { token, tenant })).body;
      return task.status === 'running' ? undefined : task;
    }, `export ${taskId}`);
  }

  it('exports 2,500 members (three batches) to CSV with progress, and a second ask while it runs returns the same task', { timeout: 180_000 }, async () => {
    const started = await api.call('/admin/members/export-task/?format=csv', { token: admin });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ kind: 'member-export', status: 'running', result: null, error_code: null });
    const again = await api.call('/admin/members/export-task/?format=csv', { token: admin });
    const task = await finished(started.body.id);
    // Asked while the first was running, unless the export had already finished by then.
    if (again.body.status === 'running') expect(again.body.id).toBe(started.body.id);

    expect(task).toMatchObject({ status: 'completed', progress: { processed: total, total }, error_code: null });
    expect(task.result).toMatchObject({ format: 'csv', rows: total, download_path: `/admin/members/export-task/${task.id}/download/` });
    expect(task.result.file_name).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);

    const file = await download(task.id);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toContain('attachment');
    const rows = parseCsv(await file.text());
    expect(rows[0]).toEqual([
      'name',
      'email',
      'groups',
      'status',
      'admin',
      'member_type',
      'sso_id',
      'joined_at',
      'Department',
      'Employee number',
      'credit_limit',
    ]);
    expect(rows).toHaveLength(total + 1);
    const bulk0 = rows.find((row) => row[1] === 'bulk-0@export.test')!;
    expect(bulk0).toEqual([
      'Bulk member 0',
      'bulk-0@export.test',
      'Default group',
      'approved',
      'no',
      'organization',
      '',
      expect.stringMatching(/^\d{4}-/),
      'Sales',
      '',
      '1000',
    ]);
    expect(rows.find((row) => row[1] === DEMO_ADMIN.email)![4]).toBe('yes');
  });

  it('exports XLSX: a workbook whose sheet holds every member', { timeout: 180_000 }, async () => {
    const started = await api.call('/admin/members/export-task/?format=xlsx', { token: admin });
    const task = await finished(started.body.id);
    expect(task).toMatchObject({ status: 'completed', result: { format: 'xlsx', rows: total } });
    const file = await download(task.id);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(detectFileType(bytes)).toBe('xlsx');
    const rows = readXlsxRows(bytes);
    expect(rows).toHaveLength(total + 1);
    expect(rows[0]![0]).toBe('name');
    expect(rows.find((row) => row[1] === `bulk-${BULK - 1}@export.test`)).toEqual(expect.arrayContaining([`Bulk member ${BULK - 1}`, 'Sales']));
  });

  // The rules below hold at any size: they export the small `other` workspace (its two demo accounts).
  const exportOther = async () =>
    finished((await api.call('/admin/members/export-task/?format=csv', { token: otherAdmin, tenant: 'other' })).body.id, otherAdmin, 'other');

  it('keeps formulas typed by members inert in the file', async () => {
    const otherTenant = await tenantIdOf(server.db, 'other');
    await server.db.execute(sql`update members set name = '=HYPERLINK("http://evil")' where email = ${DEMO_MEMBER.email} and tenant_id = ${otherTenant}`);
    const task = await exportOther();
    const rows = parseCsv(await (await download(task.id, otherAdmin, 'other')).text());
    expect(rows.find((row) => row[1] === DEMO_MEMBER.email)![0]).toBe(`'=HYPERLINK("http://evil")`);
  });

  it("names the custom-field columns in the asking admin's language, the other name where a field has none in it", async () => {
    const otherTenant = await tenantIdOf(server.db, 'other');
    await server.db.insert(customFields).values({ tenantId: otherTenant, enName: 'Shift' });
    const me = { id: await memberIdOf(server.db, otherTenant, DEMO_ADMIN.email) };
    await api.call(`/members/${me.id}/`, { method: 'PATCH', token: otherAdmin, tenant: 'other', body: { language: 'ko' } });
    try {
      const rows = parseCsv(await (await download((await exportOther()).id, otherAdmin, 'other')).text());
      expect(rows[0]).toEqual(['name', 'email', 'groups', 'status', 'admin', 'member_type', 'sso_id', 'joined_at', '부서', '사번', 'Shift', 'credit_limit']);
    } finally {
      await api.call(`/members/${me.id}/`, { method: 'PATCH', token: otherAdmin, tenant: 'other', body: { language: 'en' } });
      await server.db.delete(customFields).where(and(eq(customFields.tenantId, otherTenant), eq(customFields.enName, 'Shift')));
    }
  });

  it('answers 404 export_file_missing when the finished file is gone (spec §8 missing file url)', async () => {
    const task = await exportOther();
    await createFileStore(server.config).delete(`tenants/${await tenantIdOf(server.db, 'other')}/member-exports/${task.id}.csv`);
    const gone = await download(task.id, otherAdmin, 'other');
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe('export_file_missing');
  });

  it('is for admins: a member gets 403; another tenant’s admin gets 404 for the task and its file', async () => {
    expect((await api.call('/admin/members/export-task/', { token: otherMember, tenant: 'other' })).status).toBe(403);
    const task = await exportOther();
    expect((await download(task.id, otherMember, 'other')).status).toBe(403);
    expect((await download(task.id, admin)).status).toBe(404);
    expect((await api.call(`/tasks/${task.id}/`, { token: admin })).status).toBe(404);
    expect((await api.call('/admin/members/export-task/?format=pdf', { token: otherAdmin, tenant: 'other' })).status).toBe(400);
  });
});

/**
 * One process is killed in the middle of two exports, then one app restarts on its database: the
 * export it finds within its time limit resumes; the other, asked for an hour before, fails as timed
 * out. PGlite only (the worker opens a PGlite directory): the PostgreSQL pass would repeat it as is.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('a server killed mid-export', () => {
  const TOTAL = 2502; // 2,500 members and the two demo accounts: three batches
  let directory: string;
  let filesDir: string;
  let handle: DatabaseHandle | undefined;
  let child: ChildProcess | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let resumed: number;
  let late: number;
  const midway = new Map<number, typeof backgroundTasks.$inferSelect>();
  const config = () => testConfig({ ...fastJobSettings, FILES_DIR: filesDir, MEMBER_EXPORT_TIME_LIMIT_SECONDS: 600 });

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'export-crash-'));
    filesDir = mkdtempSync(join(tmpdir(), 'export-crash-files-'));
    handle = await openPglite(directory, undefined, await migratedPglite());
    await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'demo workspace' });
    const demo = await tenantIdOf(handle.db, 'demo');
    await seedBulkMembers(handle.db, demo, 2500);
    // A second admin, so that the killed process has two exports under way (one per admin).
    await handle.db
      .update(members)
      .set({ isAdmin: true })
      .where(and(eq(members.tenantId, demo), eq(members.email, DEMO_MEMBER.email)));
    await handle.close();

    [resumed, late] = (await killWorkerMidway([directory, filesDir], (worker) => (child = worker))) as [number, number];
    child = undefined;
    handle = await openPglite(directory);
    for (const task of await handle.db.select().from(backgroundTasks)) midway.set(task.id, task);
    // The restart comes a minute after the crash; the late export was asked for an hour before it.
    expect(await ageDeadWorkersHeartbeats(handle.db, [MEMBER_EXPORT_TASK])).toBe(2);
    await handle.db
      .update(backgroundTasks)
      .set({ createdAt: sql`now() - interval '1 hour'` })
      .where(eq(backgroundTasks.id, late));
    app = await buildApp({ db: handle.db, config: config() });
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await app?.close();
    await handle?.close();
    rmSync(directory, { recursive: true, force: true });
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('resumes after a restart: the retried export completes with every member', async () => {
    // The stream reads ahead of the file a little: some batches are done, not all.
    expect(midway.get(resumed)).toMatchObject({ status: 'running', total: TOTAL });
    expect(midway.get(resumed)!.processed).toBeGreaterThan(0);
    expect(midway.get(resumed)!.processed).toBeLessThan(TOTAL);
    const task = await settledTask(handle!.db, resumed);
    expect(task).toMatchObject({ status: 'completed', processed: TOTAL, total: TOTAL, result: { rows: TOTAL } });
  });

  it('fails cleanly as timed out when the restart comes after the time limit', async () => {
    expect(midway.get(late)).toMatchObject({ status: 'running', total: TOTAL });
    // The retry finds the export past its limit before writing anything.
    const task = await settledTask(handle!.db, late);
    expect(task).toMatchObject({ status: 'failed', errorCode: 'timed_out', result: null });
    const demo = await tenantIdOf(handle!.db, 'demo');
    expect(await createFileStore(config()).exists(`tenants/${demo}/member-exports/${late}.csv`)).toBe(false);
  });
});

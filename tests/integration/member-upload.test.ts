import { and, count, eq, like, sql } from 'drizzle-orm';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client';
import { auditLog, customFields, invitations, memberCustomFieldValues, members, plans, tenants } from '../../src/server/db/schema';
import { listOutbox } from '../../src/server/mail/outbox';
import { csvLines, readXlsxRows, spreadsheetBuffer } from '../../src/server/storage/spreadsheet';
import { MEMBER_UPLOAD_BATCH_SIZE } from '../../src/shared/domain/memberTransfer';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { memberIdOf, tenantIdOf, waitFor } from './helpers/memberTransfer';

/** Five batches, two rounds of the bad rows (the ten after every 250th). */
const ROWS = 5 * MEMBER_UPLOAD_BATCH_SIZE;
const HEADER = ['name', 'email', 'default_member_group', 'sso_id', 'Department', 'Employee number'];

interface Failure {
  row: number;
  email: string;
  reason: string;
  field: string | null;
}

function upload(server: TestServer, token: string, bytes: Buffer | string, fileName = 'members.csv', tenant = 'demo') {
  const form = new FormData();
  form.append('files', new Blob([bytes]), fileName);
  return fetch(`${server.apiBase}/admin/members/bulk-upload/`, { method: 'POST', headers: { 'x-access-token': token, 'x-subdomain': tenant }, body: form });
}

const csv = (rows: string[][]) => csvLines([HEADER, ...rows]);

async function finishedTask(api: ReturnType<typeof apiClient>, token: string, taskId: number, tenant = 'demo') {
  return waitFor(
    async () => {
      const task = (await api.call(`/tasks/${taskId}/`, { token, tenant })).body;
      return task.status === 'running' ? undefined : task;
    },
    `upload ${taskId}`,
    300_000,
  );
}

async function auditCount(db: Database, tenantId: number, action: string) {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, action)));
  return row!.n;
}

describe('member bulk upload (POST /admin/members/bulk-upload/)', () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let otherAdmin: string;
  let demo: number;

  beforeAll(async () => {
    server = await startTestServer({ extraTenants: ['other'], config: { JOB_POLL_INTERVAL_SECONDS: 0.5 } });
    api = apiClient(server);
    admin = (await api.signIn(DEMO_ADMIN)).access_token;
    member = (await api.signIn(DEMO_MEMBER)).access_token;
    otherAdmin = (await api.signIn(DEMO_ADMIN, 'other')).access_token;
    demo = await tenantIdOf(server.db, 'demo');
    // The demo plan allows 50 pending invitations; these uploads invite hundreds.
    await server.db.update(plans).set({ invitationLimit: null });
    await server.db.insert(customFields).values({ tenantId: demo, enName: 'Internal note', isSignupField: false });
    const [employeeNo] = await server.db
      .select({ id: customFields.id })
      .from(customFields)
      .where(and(eq(customFields.tenantId, demo), eq(customFields.enName, 'Employee number')));
    await server.db
      .insert(memberCustomFieldValues)
      .values({ tenantId: demo, memberId: await memberIdOf(server.db, demo, DEMO_MEMBER.email), customFieldId: employeeNo!.id, value: '777' });
    await server.db.insert(members).values({ tenantId: demo, email: 'waiting@upload.test', name: 'Waiting', status: 'pending' });
    expect((await api.call('/admin/invitations/bulk/', { method: 'POST', token: admin, body: { members: [{ email: 'invited@upload.test' }] } })).status).toBe(
      200,
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('invites 500 rows in batches; the bad ones fail with exactly their reasons and nothing else is written', { timeout: 60_000 }, async () => {
    const rows: string[][] = [];
    const expected: Failure[] = [];
    for (let i = 0; i < ROWS; i++) {
      const row = [`Uploaded ${i}`, `up-${i}@upload.test`, 'Default group', '', 'Eng', String(100_000 + i)];
      const fail = (reason: string, field: string | null) => expected.push({ row: i + 2, email: row[1]!, reason, field });
      switch (i % 250) {
        case 1:
          row[0] = '';
          fail('invalid_name', 'name');
          break;
        case 2:
          row[0] = 'x'.repeat(101);
          fail('invalid_name', 'name');
          break;
        case 3:
          row[1] = `not-an-email-${i}`;
          fail('invalid_email', 'email');
          break;
        case 4:
          row[2] = 'No such group';
          fail('invalid_member_group', 'default_member_group');
          break;
        case 5:
          row[4] = '';
          fail('missing_required_field', 'Department');
          break;
        case 6:
          row[5] = 'abc';
          fail('invalid_number', 'Employee number');
          break;
        case 7:
          row[5] = String(100_000 + i - 7);
          fail('duplicate_unique_value', 'Employee number');
          break;
        case 8:
          row[1] = `up-${i - 8}@upload.test`;
          fail('already_invited', 'email');
          break;
        case 9:
          row[5] = '777';
          fail('duplicate_unique_value', 'Employee number');
          break;
        case 10:
          row[3] = 'has space';
          fail('invalid_sso_id', 'sso_id');
          break;
      }
      if (i === 11) {
        row[1] = DEMO_MEMBER.email;
        fail('already_exists', 'email');
      }
      if (i === 12) {
        row[1] = 'invited@upload.test';
        fail('already_invited', 'email');
      }
      if (i === 13) {
        row[1] = 'waiting@upload.test';
        fail('already_requested', 'email');
      }
      rows.push(row);
    }
    const started = await upload(server, admin, csv(rows));
    expect(started.status).toBe(200);
    const task = (await started.json()) as { id: number; kind: string; status: string };
    expect(task).toMatchObject({ kind: 'member-upload', status: 'running' });

    const done = await finishedTask(api, admin, task.id);
    const invited = ROWS - expected.length;
    expect(done).toMatchObject({ status: 'completed', progress: { processed: ROWS, total: ROWS } });
    expect(done.result).toEqual({ outcome: 'warning', total: ROWS, invited, failed: expected });

    const written = await server.db
      .select({ email: invitations.email, values: invitations.customFieldValues })
      .from(invitations)
      .where(and(eq(invitations.tenantId, demo), like(invitations.email, 'up-%@upload.test')));
    expect(written).toHaveLength(invited);
    expect(new Set(written.map((w) => w.email)).size).toBe(invited);
    expect(written.find((w) => w.email === 'up-0@upload.test')!.values).toEqual([
      expect.objectContaining({ value: 'Eng' }),
      expect.objectContaining({ value: '100000' }),
    ]);
    const [created] = await server.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, demo), eq(auditLog.action, 'invitation.create'), sql`${auditLog.changes}->>'source' = 'member_upload'`));
    expect(created!.n).toBe(invited);
    const [summary] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, demo), eq(auditLog.action, 'member.bulk_upload')));
    expect(summary).toMatchObject({ targetId: String(task.id), changes: { total: ROWS, invited, failed: expected.length } });
  });

  it('reads XLSX uploads too, and says success when every row went through', { timeout: 120_000 }, async () => {
    const bytes = await spreadsheetBuffer('xlsx', HEADER, [
      ['Sheet one', 'sheet-1@upload.test', 'default group', '', 'Ops', '200001'],
      ['Sheet two', 'sheet-2@upload.test', '기본 그룹', 'sso-2', 'Ops', ''],
    ]);
    const started = await upload(server, admin, bytes, 'members.xlsx');
    expect(started.status).toBe(200);
    const done = await finishedTask(api, admin, ((await started.json()) as { id: number }).id);
    expect(done.result).toEqual({ outcome: 'success', total: 2, invited: 2, failed: [] });
    const [second] = await server.db.select().from(invitations).where(eq(invitations.email, 'sheet-2@upload.test'));
    expect(second).toMatchObject({ ssoId: 'sso-2', name: 'Sheet two' });

    // The invitee accepts from the mail and becomes a member with the row's custom-field values.
    const mail = (await listOutbox(server.db, { limit: 10_000 })).find((m) => m.to === 'sheet-1@upload.test')!;
    const hash = /\/auth\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const temporary = mail.text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line))!;
    const policies = (await api.call('/policies/')).body.items.filter((p: { is_mandatory: boolean }) => p.is_mandatory).map((p: { id: number }) => p.id);
    const accepted = await api.call(`/invitations/${hash}/accept/`, {
      method: 'POST',
      body: { email: 'sheet-1@upload.test', name: 'Sheet one', password: 'Joined!2345', agreements: policies, temporary_password: temporary, language: 'en' },
    });
    expect(accepted.status).toBe(200);
    const values = await server.db
      .select({ value: memberCustomFieldValues.value })
      .from(memberCustomFieldValues)
      .where(eq(memberCustomFieldValues.memberId, accepted.body.member_id));
    expect(values.map((v) => v.value).sort()).toEqual(['200001', 'Ops']);
  });

  it('marks a row the database refuses unknown_error and invites the others; the error message is not shown', { timeout: 120_000 }, async () => {
    // The XLSX writer drops characters XML cannot carry; a hand-made file can still hold a raw NUL,
    // which the reader passes on and PostgreSQL refuses in text (22021) and in jsonb (22P05).
    const made = unzipSync(
      new Uint8Array(
        await spreadsheetBuffer('xlsx', HEADER, [
          ['Nul one', 'nul-1@upload.test', 'Default group', '', 'Ops', ''],
          ['Nul NUL-HERE two', 'nul-2@upload.test', 'Default group', '', 'Ops', ''],
          ['Nul three', 'nul-3@upload.test', 'Default group', '', 'OpsNUL-HERE', ''],
          ['Nul four', 'nul-4@upload.test', 'Default group', '', 'Ops', ''],
        ]),
      ),
    );
    for (const [name, bytes] of Object.entries(made))
      if (name.startsWith('xl/worksheets/')) made[name] = strToU8(strFromU8(bytes).replaceAll('NUL-HERE', '\u0000'));
    const started = await upload(server, admin, Buffer.from(zipSync(made)), 'members.xlsx');
    expect(started.status).toBe(200);
    const taskId = ((await started.json()) as { id: number }).id;
    const done = await finishedTask(api, admin, taskId);
    expect(done).toMatchObject({ status: 'completed', error_code: null });
    expect(done.result).toEqual({
      outcome: 'warning',
      total: 4,
      invited: 2,
      failed: [
        { row: 3, email: 'nul-2@upload.test', reason: 'unknown_error', field: null },
        { row: 4, email: 'nul-3@upload.test', reason: 'unknown_error', field: null },
      ],
    });
    expect(JSON.stringify(done)).not.toMatch(/byte sequence|escape sequence|0x00/i);
    const written = await server.db.select({ email: invitations.email }).from(invitations).where(like(invitations.email, 'nul-%@upload.test'));
    expect(written.map((w) => w.email).sort()).toEqual(['nul-1@upload.test', 'nul-4@upload.test']);
    const audited = await server.db
      .select({ email: sql<string>`${auditLog.changes}->>'email'` })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'invitation.create'), like(sql`${auditLog.changes}->>'email'`, 'nul-%')));
    expect(audited.map((a) => a.email).sort()).toEqual(['nul-1@upload.test', 'nul-4@upload.test']);
    const mailed = (await listOutbox(server.db, { limit: 10_000 })).map((m) => m.to).filter((to) => to.startsWith('nul-'));
    expect(mailed.sort()).toEqual(['nul-1@upload.test', 'nul-4@upload.test']);
  });

  it('refuses a file that is not laid out like the template before any row is touched', async () => {
    const expectError = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      expect(((await response.json()) as { code: string }).code).toBe(code);
    };
    await expectError(
      await upload(
        server,
        admin,
        csvLines([
          ['name', 'email', 'default_member_group'],
          ['A', 'a@upload.test', 'Default group'],
        ]),
      ),
      422,
      'missing_column',
    );
    await expectError(
      await upload(
        server,
        admin,
        csvLines([
          [...HEADER, 'Internal note'],
          ['A', 'a@upload.test', 'Default group', '', 'Eng', '', 'x'],
        ]),
      ),
      422,
      'excluded_column',
    );
    await expectError(
      await upload(
        server,
        admin,
        csvLines([
          [...HEADER, 'Shoe size'],
          ['A', 'a@upload.test', 'Default group', '', 'Eng', '', '42'],
        ]),
      ),
      422,
      'unknown_column',
    );
    await expectError(await upload(server, admin, csvLines([HEADER])), 422, 'empty_file');
    await expectError(await upload(server, admin, Buffer.from('\x89PNG\r\n\x1a\n0000000000000'), 'members.csv'), 415, 'unsupported_file_type');
    await expectError(await upload(server, admin, 'name,email\n', 'members.txt'), 415, 'unsupported_file_type');
    const tooMany = csv(Array.from({ length: 10_001 }, (_, i) => [`N${i}`, `n${i}@x.test`, 'Default group', '', 'Eng', '']));
    await expectError(await upload(server, admin, tooMany), 422, 'too_many_rows');
  });

  it('gives a template with the sign-up custom-field columns, as CSV and XLSX', async () => {
    const csvTemplate = await fetch(`${server.apiBase}/admin/members/bulk-upload/template/?format=csv`, { headers: { 'x-access-token': admin } });
    expect(csvTemplate.status).toBe(200);
    expect(csvTemplate.headers.get('content-disposition')).toContain('member-upload-template.csv');
    expect((await csvTemplate.text()).replace('\ufeff', '')).toBe(`${HEADER.join(',')}\r\n`);
    const xlsxTemplate = await fetch(`${server.apiBase}/admin/members/bulk-upload/template/?format=xlsx`, { headers: { 'x-access-token': admin } });
    expect(readXlsxRows(Buffer.from(await xlsxTemplate.arrayBuffer()))).toEqual([HEADER]);
  });

  it("finds a custom field's column by its Korean or its English name; a Korean admin's template names them in Korean", { timeout: 120_000 }, async () => {
    const koreanHeader = ['name', 'email', 'default_member_group', '부서', '사번'];
    const started = await upload(
      server,
      admin,
      csvLines([
        koreanHeader,
        ['Ko Heading', 'ko-heading@upload.test', 'Default group', 'Ops', '300001'],
        ['Ko Bad', 'ko-bad@upload.test', 'Default group', 'Ops', 'abc'],
      ]),
    );
    expect(started.status).toBe(200);
    const done = await finishedTask(api, admin, ((await started.json()) as { id: number }).id);
    // A row's field is named as the file heads its column.
    expect(done.result).toEqual({
      outcome: 'warning',
      total: 2,
      invited: 1,
      failed: [{ row: 3, email: 'ko-bad@upload.test', reason: 'invalid_number', field: '사번' }],
    });
    // Both names of one field are one column twice.
    const twice = await upload(
      server,
      admin,
      csvLines([
        [...HEADER, '부서'],
        ['A', 'a@upload.test', 'Default group', '', 'Eng', '', 'Eng'],
      ]),
    );
    expect(twice.status).toBe(422);
    expect(await twice.json()).toMatchObject({ code: 'duplicate_column', details: { field_name: 'Department' } });

    const adminId = await memberIdOf(server.db, demo, DEMO_ADMIN.email);
    await api.call(`/members/${adminId}/`, { method: 'PATCH', token: admin, body: { language: 'ko' } });
    try {
      const template = await fetch(`${server.apiBase}/admin/members/bulk-upload/template/?format=csv`, { headers: { 'x-access-token': admin } });
      expect((await template.text()).replace('\ufeff', '')).toBe('name,email,default_member_group,sso_id,부서,사번\r\n');
      // A required field's column missing is said in the admin's language.
      const missing = await upload(
        server,
        admin,
        csvLines([
          ['name', 'email', 'default_member_group'],
          ['A', 'a@upload.test', 'Default group'],
        ]),
      );
      expect(await missing.json()).toMatchObject({ code: 'missing_column', details: { field_name: '부서' } });
    } finally {
      await api.call(`/members/${adminId}/`, { method: 'PATCH', token: admin, body: { language: 'en' } });
    }
  });

  it('is for admins: a member gets 403; another tenant’s admin cannot read the task (404)', async () => {
    expect((await upload(server, member, csv([['A', 'a@upload.test', 'Default group', '', 'Eng', '']]))).status).toBe(403);
    expect((await fetch(`${server.apiBase}/admin/members/bulk-upload/template/`, { headers: { 'x-access-token': member } })).status).toBe(403);
    const started = await upload(server, admin, csv([['Solo', 'solo@upload.test', 'Default group', '', 'Eng', '']]));
    const task = (await started.json()) as { id: number };
    expect((await api.call(`/tasks/${task.id}/`, { token: otherAdmin, tenant: 'other' })).status).toBe(404);
    await finishedTask(api, admin, task.id);
  });

  it('stops with invitation_limit_reached when a batch would pass the plan’s invitation limit', { timeout: 120_000 }, async () => {
    const [tenant] = await server.db.select({ planId: tenants.planId }).from(tenants).where(eq(tenants.subdomain, 'other'));
    await server.db.update(plans).set({ invitationLimit: 1 }).where(eq(plans.id, tenant!.planId!));
    const rows = [
      ['Limit one', 'limit-1@upload.test', 'Default group', '', 'Eng', ''],
      ['Limit two', 'limit-2@upload.test', 'Default group', '', 'Eng', ''],
    ];
    const started = await upload(server, otherAdmin, csv(rows), 'members.csv', 'other');
    const done = await finishedTask(api, otherAdmin, ((await started.json()) as { id: number }).id, 'other');
    expect(done).toMatchObject({ status: 'failed', error_code: 'invitation_limit_reached', result: null });
    expect(await server.db.select().from(invitations).where(like(invitations.email, 'limit-%'))).toEqual([]);
    await server.db.update(plans).set({ invitationLimit: null }).where(eq(plans.id, tenant!.planId!));
  });

  it('in an SSO-only workspace requires the sso_id column and a value in every row', { timeout: 120_000 }, async () => {
    await server.db.update(tenants).set({ ssoOnly: true }).where(eq(tenants.subdomain, 'other'));
    const withoutColumn = await upload(
      server,
      otherAdmin,
      csvLines([
        ['name', 'email', 'default_member_group', 'Department'],
        ['A', 'a@sso.test', 'Default group', 'Eng'],
      ]),
      'members.csv',
      'other',
    );
    expect(withoutColumn.status).toBe(422);
    const started = await upload(
      server,
      otherAdmin,
      csvLines([HEADER, ['With id', 'with@sso.test', 'Default group', 'emp-1', 'Eng', ''], ['Without id', 'without@sso.test', 'Default group', '', 'Eng', '']]),
      'members.csv',
      'other',
    );
    const done = await finishedTask(api, otherAdmin, ((await started.json()) as { id: number }).id, 'other');
    expect(done.result).toEqual({
      outcome: 'warning',
      total: 2,
      invited: 1,
      failed: [{ row: 3, email: 'without@sso.test', reason: 'missing_sso_id', field: 'sso_id' }],
    });
  });
});

describe('member upload when the mail server refuses an address for good', () => {
  let server: TestServer;
  let sink: SmtpSink;

  beforeAll(async () => {
    // The mail server knows no mailbox "refused-…" (550); the other rows' mails go through.
    sink = await startSmtpSink({ refuse: (address) => (address.startsWith('refused-') ? 550 : undefined) });
    server = await startTestServer({ config: { SMTP_URL: sink.url, JOB_POLL_INTERVAL_SECONDS: 0.5 } });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('fails those rows with invitation_email_failed, keeps none of their invitations, and says warning', { timeout: 120_000 }, async () => {
    const api = apiClient(server);
    const admin = (await api.signIn(DEMO_ADMIN)).access_token;
    const started = await upload(
      server,
      admin,
      csv([
        ['Mail one', 'refused-1@upload.test', 'Default group', '', 'Eng', ''],
        ['Mail two', 'kept-2@upload.test', 'Default group', '', 'Eng', ''],
      ]),
    );
    const done = await finishedTask(api, admin, ((await started.json()) as { id: number }).id);
    expect(done.result).toEqual({
      outcome: 'warning',
      total: 2,
      invited: 1,
      failed: [{ row: 2, email: 'refused-1@upload.test', reason: 'invitation_email_failed', field: null }],
    });
    expect(await server.db.select().from(invitations).where(eq(invitations.email, 'refused-1@upload.test'))).toEqual([]);
    expect(await server.db.select().from(invitations).where(eq(invitations.email, 'kept-2@upload.test'))).toHaveLength(1);
    expect(sink.received.map((mail) => mail.envelopeTo[0])).toEqual(['kept-2@upload.test']);
    const demo = await tenantIdOf(server.db, 'demo');
    expect(await auditCount(server.db, demo, 'invitation.delete')).toBe(1);
  });
});

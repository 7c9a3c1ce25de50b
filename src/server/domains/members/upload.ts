import type { AppDeps } from '../../deps';
import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { MemberUploadFailedRow, MemberUploadResult } from '../../../shared/api/admin/memberTransfer';
import type { Task } from '../../../shared/api/tasks';
import {
  MEMBER_FILE_FORMATS,
  MEMBER_UPLOAD_BATCH_SIZE,
  MEMBER_UPLOAD_MAX_ROWS,
  MEMBER_UPLOAD_TASK,
  type MemberFileFormat,
  type MemberUploadRowError,
  SSO_ID_MAX,
  UPLOAD_COLUMNS,
  UPLOAD_NAME_MAX,
  UPLOAD_NAME_MIN,
} from '../../../shared/domain/memberTransfer';
import type { ErrorCode } from '../../../shared/domain/errors';
import { validateEmail } from '../../../shared/domain/validation';
import { localizedName, type SupportedLanguage } from '../../../shared/domain/language';
import type { Database, Queryable, Transaction } from '../../db/client';
import { isDataRefusal } from '../../db/databaseErrors';
import type { MemberRow, TenantRow } from '../../db/rows';
import { backgroundTasks, customFields, invitations, memberCustomFieldValues, memberGroups, memberUploads, members, tenants } from '../../db/schema';
import { AppError } from '../../errors';
import { type JobContext, type JobType, TaskFailure } from '../../jobs/queue';
import { UnsupportedFileTypeError, checkFileType } from '../../storage/fileType';
import { SPREADSHEET_MIME, spreadsheetBuffer } from '../../storage/spreadsheet';
import type { DocumentPool } from '../../workers/documentPool';
import { recordAudit, recordAudits } from '../auditLog/service';
import {
  type NewInvitation,
  assertCanInvite,
  assertInvitationRoom,
  insertInvitations,
  mailInvitations,
  prepareInvitation,
  priorInvitees,
} from '../invitations/service';
import { type UploadedPart, documentRefusal } from '../files/service';
import { toTask } from '../tasks/service';

/** `documents`: reads the uploaded spreadsheet in a parsing process, within the document limits. */
export type MemberUploadDeps = Pick<AppDeps, 'db' | 'mail' | 'links' | 'log' | 'store' | 'documents'>;

const uploadPayload = z.object({ fileKey: z.string(), format: z.enum(MEMBER_FILE_FORMATS) });
export type MemberUploadJob = JobType<z.infer<typeof uploadPayload>>;

type CustomFieldRow = typeof customFields.$inferSelect;

/** How the file's columns map to what an invitation needs. */
interface Layout {
  name: number;
  email: number;
  group: number;
  ssoId: number | null;
  /** Each sign-up field the file has, with its column and that column's heading as the file writes it. */
  fields: Array<{ field: CustomFieldRow; column: number; heading: string }>;
}

const normalizeHeader = (value: string) => value.trim().toLowerCase();
const columnError = (code: ErrorCode, message: string, column: string) => new AppError(422, code, message, { field_name: column });

/** A custom field's names as a heading may give them: its Korean and its English one (either names its column). */
const headingsOf = (field: CustomFieldRow) => [field.koName, field.enName].map(normalizeHeader).filter((name) => name !== '');

/**
 * Reads the header against the tenant's columns (spec §5): the fixed ones, every required sign-up
 * custom field present, no column of a custom field that is not a sign-up field, nothing unknown.
 * A custom field's column is headed by its Korean or its English name (an export or template in
 * either language comes back as it is); both at once are one column twice. Errors name a field
 * in `language`, the uploading admin's.
 */
async function readLayout(db: Queryable, tenant: TenantRow, header: string[], language: SupportedLanguage): Promise<Layout> {
  const names = header.map(normalizeHeader);
  const fields = await db.select().from(customFields).where(eq(customFields.tenantId, tenant.id)).orderBy(asc(customFields.id));
  const at = (column: string) => names.indexOf(normalizeHeader(column));
  for (const column of [UPLOAD_COLUMNS.name, UPLOAD_COLUMNS.email, UPLOAD_COLUMNS.group, ...(tenant.ssoOnly ? [UPLOAD_COLUMNS.ssoId] : [])]) {
    if (at(column) < 0) throw columnError('missing_column', `The file has no "${column}" column.`, column);
  }
  const columnsOf = new Map(fields.map((field) => [field, names.flatMap((name, index) => (name !== '' && headingsOf(field).includes(name) ? [index] : []))]));
  for (const [field, columns] of columnsOf) {
    const name = localizedName({ ko_name: field.koName, en_name: field.enName }, language);
    if (!field.isSignupField && columns.length > 0) throw columnError('excluded_column', `"${name}" is not a sign-up field and must be left out.`, name);
    if (field.isSignupField && field.isRequired && columns.length === 0) throw columnError('missing_column', `The file has no "${name}" column.`, name);
    if (columns.length > 1) throw columnError('duplicate_column', `The column "${name}" appears twice.`, name);
  }
  const known = new Set([...Object.values(UPLOAD_COLUMNS).map(normalizeHeader), ...fields.flatMap(headingsOf)]);
  const unknown = header.find((name) => name.trim() !== '' && !known.has(normalizeHeader(name)));
  if (unknown !== undefined) throw columnError('unknown_column', `The column "${unknown}" is not one of the template's.`, unknown);
  const duplicate = names.find((name, index) => name !== '' && names.indexOf(name) !== index);
  if (duplicate !== undefined) throw columnError('duplicate_column', `The column "${duplicate}" appears twice.`, duplicate);
  const ssoColumn = at(UPLOAD_COLUMNS.ssoId);
  return {
    name: at(UPLOAD_COLUMNS.name),
    email: at(UPLOAD_COLUMNS.email),
    group: at(UPLOAD_COLUMNS.group),
    ssoId: ssoColumn >= 0 ? ssoColumn : null,
    fields: [...columnsOf].flatMap(([field, [column]]) =>
      field.isSignupField && column !== undefined ? [{ field, column, heading: header[column]!.trim() }] : [],
    ),
  };
}

/** Rows of the file (header first), or the spec §8 upload errors (400, 413) for a file that is no table we can read. */
async function readRows(documents: DocumentPool, format: MemberFileFormat, bytes: Buffer): Promise<string[][]> {
  try {
    // The header, the most rows a file may have, and one more to tell that it has too many.
    return await documents.readSpreadsheet(format, bytes, MEMBER_UPLOAD_MAX_ROWS + 2);
  } catch (error) {
    throw documentRefusal(error) ?? error;
  }
}

function checkRowCount(rows: string[][]): void {
  if (rows.length < 2) throw new AppError(422, 'empty_file', 'The file has no member rows.');
  if (rows.length - 1 > MEMBER_UPLOAD_MAX_ROWS) {
    throw new AppError(422, 'too_many_rows', `A file may have at most ${MEMBER_UPLOAD_MAX_ROWS} member rows.`, { max_rows: MEMBER_UPLOAD_MAX_ROWS });
  }
}

/**
 * POST /admin/members/bulk-upload/: checks the file's format and columns at once (an admin hears
 * about a wrong template before any row is touched), stores it and starts the upload task.
 */
export async function startMemberUpload(
  deps: MemberUploadDeps & Pick<AppDeps, 'jobs'>,
  job: MemberUploadJob,
  tenant: TenantRow,
  admin: MemberRow,
  parts: UploadedPart[],
): Promise<Task> {
  const { jobs } = deps;
  assertCanInvite(admin);
  const [part] = parts;
  if (!part || parts.length > 1) throw new AppError(422, 'validation_error', 'Send exactly one file.');
  let format: MemberFileFormat;
  try {
    const checked = checkFileType(part.bytes, { fileName: part.fileName, claimedType: part.claimedType, accept: ['xlsx', 'text'] });
    const extension = extname(part.fileName).slice(1).toLowerCase();
    if (checked.kind === 'text' && extension !== 'csv') throw new UnsupportedFileTypeError('Only CSV and XLSX files can be uploaded.', 'text');
    format = checked.kind === 'xlsx' ? 'xlsx' : 'csv';
  } catch (error) {
    if (error instanceof UnsupportedFileTypeError) throw new AppError(415, 'unsupported_file_type', 'Upload a CSV or XLSX file.');
    throw documentRefusal(error) ?? error;
  }
  const rows = await readRows(deps.documents, format, part.bytes);
  checkRowCount(rows);
  await readLayout(deps.db, tenant, rows[0]!, admin.language);
  const fileKey = `tenants/${tenant.id}/member-uploads/${randomUUID()}.${format}`;
  await deps.store.put(fileKey, part.bytes, { contentType: SPREADSHEET_MIME[format] });
  const taskId = await jobs.enqueue(job, { fileKey, format }, { tenantId: tenant.id, memberId: admin.id }, { fileKey: () => fileKey });
  const [task] = await deps.db.select().from(backgroundTasks).where(eq(backgroundTasks.id, taskId));
  return toTask(task!);
}

/** GET /admin/members/bulk-upload/template/: the header row of the tenant's upload file, custom fields named in the admin's language. */
export async function uploadTemplate(db: Database, tenant: TenantRow, format: MemberFileFormat, language: SupportedLanguage) {
  const fields = await db
    .select({ ko_name: customFields.koName, en_name: customFields.enName })
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.isSignupField, true)))
    .orderBy(asc(customFields.id));
  const header = [
    UPLOAD_COLUMNS.name,
    UPLOAD_COLUMNS.email,
    UPLOAD_COLUMNS.group,
    UPLOAD_COLUMNS.ssoId,
    ...fields.map((names) => localizedName(names, language)),
  ];
  const bytes = await spreadsheetBuffer(format, header);
  return { body: Readable.from([bytes]), size: bytes.length, mime: SPREADSHEET_MIME[format], name: `member-upload-template.${format}` };
}

/** One data row, checked: what to invite, or why not. */
type CheckedRow =
  | { line: number; email: string; ok: true; name: string; groupId: number; ssoId: string | null; values: Array<{ customFieldId: number; value: string }> }
  | { line: number; email: string; ok: false; reason: MemberUploadRowError; field: string | null };

const NUMBER = /^-?\d+(\.\d+)?$/;
const SSO_ID = /^[\x21-\x7e]+$/;

/**
 * The spec §5 rules for every row, in file order (so a rerun finds the same answers): name 1–100,
 * email, a group of the tenant by name, the SSO id (required in SSO-only workspaces), required and
 * number custom fields, and unique values neither repeated in the file nor already stored (on a
 * member or on a pending invitation from an earlier upload). A later duplicate email in the file
 * counts as already invited, as in the bulk invite.
 */
async function checkRows(db: Database, tenant: TenantRow, layout: Layout, rows: string[][]): Promise<CheckedRow[]> {
  const groups = await db
    .select({ id: memberGroups.id, koName: memberGroups.koName, enName: memberGroups.enName })
    .from(memberGroups)
    .where(eq(memberGroups.tenantId, tenant.id));
  // A group is named in either of its names (the console shows the Korean or the English one).
  const groupByName = new Map(
    groups.flatMap((g) =>
      [g.enName, g.koName]
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== '')
        .map((name) => [name, g.id] as const),
    ),
  );
  const uniqueFields = layout.fields.filter(({ field }) => field.isUnique);
  const taken = new Map<number, Set<string>>(uniqueFields.map(({ field }) => [field.id, new Set<string>()]));
  if (uniqueFields.length) {
    const ids = uniqueFields.map(({ field }) => field.id);
    const stored = await db
      .select({ fieldId: memberCustomFieldValues.customFieldId, value: memberCustomFieldValues.value })
      .from(memberCustomFieldValues)
      .where(and(eq(memberCustomFieldValues.tenantId, tenant.id), inArray(memberCustomFieldValues.customFieldId, ids)));
    for (const { fieldId, value } of stored) if (value) taken.get(fieldId)!.add(value.trim().toLowerCase());
    const pending = await db
      .select({ values: invitations.customFieldValues })
      .from(invitations)
      .where(and(eq(invitations.tenantId, tenant.id), eq(invitations.status, 'pending'), isNotNull(invitations.customFieldValues)));
    for (const { values } of pending) for (const v of values ?? []) taken.get(v.customFieldId)?.add(v.value.trim().toLowerCase());
  }
  const takenSsoIds = new Set(
    (
      await db
        .select({ ssoId: members.ssoId })
        .from(members)
        .where(and(eq(members.tenantId, tenant.id), isNotNull(members.ssoId)))
    ).map((m) => m.ssoId!),
  );
  const seenEmails = new Set<string>();

  return rows.slice(1).map((cells, index): CheckedRow => {
    const line = index + 2;
    const cell = (column: number | null) => (column === null ? '' : (cells[column] ?? '').trim());
    const email = cell(layout.email).toLowerCase();
    const fail = (reason: MemberUploadRowError, field: string | null = null): CheckedRow => ({ line, email, ok: false, reason, field });
    const name = cell(layout.name);
    if (name.length < UPLOAD_NAME_MIN || name.length > UPLOAD_NAME_MAX) return fail('invalid_name', UPLOAD_COLUMNS.name);
    if (validateEmail(email)) return fail('invalid_email', UPLOAD_COLUMNS.email);
    const groupId = groupByName.get(cell(layout.group).toLowerCase());
    if (groupId === undefined) return fail('invalid_member_group', UPLOAD_COLUMNS.group);
    const ssoId = cell(layout.ssoId);
    if (tenant.ssoOnly && ssoId === '') return fail('missing_sso_id', UPLOAD_COLUMNS.ssoId);
    if (ssoId !== '' && (ssoId.length > SSO_ID_MAX || !SSO_ID.test(ssoId))) return fail('invalid_sso_id', UPLOAD_COLUMNS.ssoId);
    if (ssoId !== '' && takenSsoIds.has(ssoId)) return fail('duplicate_unique_value', UPLOAD_COLUMNS.ssoId);
    const values: Array<{ customFieldId: number; value: string }> = [];
    // A row's field is named by its column's heading, in the words of the admin's own file.
    for (const { field, column, heading } of layout.fields) {
      const value = cell(column);
      if (value === '') {
        if (field.isRequired) return fail('missing_required_field', heading);
        continue;
      }
      if (field.fieldType === 'number' && !NUMBER.test(value)) return fail('invalid_number', heading);
      if (field.isUnique && taken.get(field.id)!.has(value.toLowerCase())) return fail('duplicate_unique_value', heading);
      values.push({ customFieldId: field.id, value });
    }
    if (seenEmails.has(email)) return fail('already_invited', UPLOAD_COLUMNS.email);
    // Only rows that pass claim their email, SSO id and unique values: a rejected row blocks nobody.
    seenEmails.add(email);
    if (ssoId !== '') takenSsoIds.add(ssoId);
    for (const v of values) taken.get(v.customFieldId)?.add(v.value.toLowerCase());
    return { line, email, ok: true, name, groupId, ssoId: ssoId || null, values };
  });
}

const failedJson = (rows: MemberUploadFailedRow[]) => sql`${JSON.stringify(rows)}::jsonb`;

/**
 * Sends the mails of the batch just committed (`mailInvitations`); invitations whose address the
 * mail server refused for good are withdrawn and become `invitation_email_failed` rows, in one
 * transaction with the checkpoint. After a crash before this, the batch's mails are already in the
 * outbox with its one temporary password each: the mail sender of any process sends them, and the
 * resumed job goes on with the next batch.
 */
async function mailBatch(
  deps: MemberUploadDeps,
  tenant: TenantRow,
  admin: MemberRow,
  taskId: number,
  written: Array<{ id: number; mailId: number; email: string; row: number }>,
) {
  await mailInvitations(deps, tenant, admin, written, async (tx, refused) => {
    const rows = refused.map((r) => ({ row: r.row, email: r.email, reason: 'invitation_email_failed' as const, field: null }));
    await tx
      .update(memberUploads)
      .set({ invited: sql`${memberUploads.invited} - ${refused.length}`, failedRows: sql`${memberUploads.failedRows} || ${failedJson(rows)}` })
      .where(eq(memberUploads.taskId, taskId));
  });
}

type PreparedRow = { row: number; invitation: NewInvitation };

/**
 * Writes a batch's invitations and their audit rows in `tx`. When the database refuses one row's
 * data (`isDataRefusal`: a NUL character from a hand-made XLSX, say), the batch is written again one
 * row at a time, each in a savepoint, and the refused rows become `unknown_error`: the other rows
 * carry on. The error is logged here and never shown. Any other failure (the database gone) fails the
 * batch, and the job retries it.
 */
async function insertRows(deps: MemberUploadDeps, tx: Transaction, tenant: TenantRow, admin: MemberRow, taskId: number, rows: PreparedRow[]) {
  const write = async (q: Queryable, part: PreparedRow[]) => {
    const created = await insertInvitations(
      deps,
      q,
      tenant,
      admin,
      part.map((p) => p.invitation),
    );
    await recordAudits(
      q,
      created.map(({ id }, i) => ({
        tenantId: tenant.id,
        actor: admin,
        action: 'invitation.create' as const,
        targetType: 'invitation',
        targetId: id,
        changes: { email: part[i]!.invitation.email, source: 'member_upload' },
      })),
    );
    return created.map((invitation, i) => ({ ...invitation, email: part[i]!.invitation.email, row: part[i]!.row }));
  };
  const refused: MemberUploadFailedRow[] = [];
  try {
    return { created: await tx.transaction((savepoint) => write(savepoint, rows)), refused };
  } catch (error) {
    if (!isDataRefusal(error)) throw error;
  }
  const created: Awaited<ReturnType<typeof write>> = [];
  for (const row of rows) {
    try {
      created.push(...(await tx.transaction((savepoint) => write(savepoint, [row]))));
    } catch (error) {
      if (!isDataRefusal(error)) throw error;
      deps.log.error({ err: error, taskId, row: row.row }, 'the database refused a member upload row');
      refused.push({ row: row.row, email: row.invitation.email, reason: 'unknown_error', field: null });
    }
  }
  return { created, refused };
}

function outcomeOf(total: number, invited: number, failed: MemberUploadFailedRow[]): MemberUploadResult {
  const sorted = [...failed].sort((a, b) => a.row - b.row);
  return { outcome: sorted.length === 0 ? 'success' : invited === 0 ? 'error' : 'warning', total, invited, failed: sorted };
}

/**
 * The upload job: every row checked first, then batches of MEMBER_UPLOAD_BATCH_SIZE, each in one
 * transaction with its invitations, their mails, their audit rows and the checkpoint (a failed
 * batch leaves no row of it), then its mails are sent. A rerun resumes after the last committed
 * batch and never makes a second temporary password for an invitation.
 */
async function runUpload(deps: MemberUploadDeps, payload: z.infer<typeof uploadPayload>, context: JobContext): Promise<MemberUploadResult> {
  const { db } = deps;
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, context.tenantId));
  const [admin] =
    context.memberId === null
      ? []
      : await db
          .select()
          .from(members)
          .where(and(eq(members.id, context.memberId), eq(members.tenantId, context.tenantId)));
  if (!tenant || !admin?.isAdmin) throw new TaskFailure('failed', 'the uploading admin is gone or no longer an admin');
  await db.insert(memberUploads).values({ taskId: context.taskId, tenantId: tenant.id }).onConflictDoNothing();
  let [checkpoint] = await db.select().from(memberUploads).where(eq(memberUploads.taskId, context.taskId));
  const stored = await deps.store.get(payload.fileKey);
  if (!stored) throw new TaskFailure('failed', 'the uploaded file is missing from the store');
  const bytes = Buffer.concat(await stored.body.toArray());
  const rows = await readRows(deps.documents, payload.format, bytes);
  const total = rows.length - 1;
  if (checkpoint!.completedAt) return outcomeOf(total, checkpoint!.invited, checkpoint!.failedRows as MemberUploadFailedRow[]);
  let layout: Layout;
  try {
    layout = await readLayout(db, tenant, rows[0]!, admin.language);
  } catch (error) {
    // The tenant's custom fields changed between the request and the job.
    if (error instanceof AppError) throw new TaskFailure(error.code, error.message);
    throw error;
  }
  const checked = await checkRows(db, tenant, layout, rows);
  await context.reportProgress(checkpoint!.processed, total);

  for (let start = checkpoint!.processed; start < total; start += MEMBER_UPLOAD_BATCH_SIZE) {
    if (context.signal.aborted) throw new Error('the upload was interrupted by a shutdown');
    const batch = checked.slice(start, start + MEMBER_UPLOAD_BATCH_SIZE);
    const candidates = batch.filter((row) => row.ok);
    const prior = await priorInvitees(
      db,
      tenant,
      candidates.map((row) => row.email),
    );
    const failures: MemberUploadFailedRow[] = batch.flatMap((row) =>
      !row.ok
        ? [{ row: row.line, email: row.email, reason: row.reason, field: row.field }]
        : prior.has(row.email)
          ? [{ row: row.line, email: row.email, reason: prior.get(row.email)!, field: UPLOAD_COLUMNS.email }]
          : [],
    );
    const inviting = candidates.filter((row) => !prior.has(row.email));
    try {
      await assertInvitationRoom(db, tenant, inviting.length);
    } catch (error) {
      if (error instanceof AppError) throw new TaskFailure(error.code, error.message);
      throw error;
    }
    const prepared = await Promise.all(
      inviting.map((row) =>
        prepareInvitation({ email: row.email, name: row.name, memberGroupId: row.groupId, customFieldValues: row.values, ssoId: row.ssoId }),
      ),
    );
    const written = await db.transaction(async (tx) => {
      const { created, refused } = await insertRows(
        deps,
        tx,
        tenant,
        admin,
        context.taskId,
        inviting.map((row, i) => ({ row: row.line, invitation: prepared[i]! })),
      );
      // Conditional on the checkpoint this run started the batch from: a second run of the same job cannot write the batch twice.
      const moved = await tx
        .update(memberUploads)
        .set({
          processed: start + batch.length,
          invited: sql`${memberUploads.invited} + ${created.length}`,
          failedRows: sql`${memberUploads.failedRows} || ${failedJson([...failures, ...refused])}`,
        })
        .where(and(eq(memberUploads.taskId, context.taskId), eq(memberUploads.processed, start)))
        .returning({ taskId: memberUploads.taskId });
      if (moved.length === 0) throw new Error('the upload checkpoint moved under this run');
      return created;
    });
    await mailBatch(deps, tenant, admin, context.taskId, written);
    await context.reportProgress(start + batch.length, total);
  }

  [checkpoint] = await db.select().from(memberUploads).where(eq(memberUploads.taskId, context.taskId));
  const failed = checkpoint!.failedRows as MemberUploadFailedRow[];
  await db.transaction(async (tx) => {
    const done = await tx
      .update(memberUploads)
      .set({ completedAt: sql`now()` })
      .where(and(eq(memberUploads.taskId, context.taskId), sql`${memberUploads.completedAt} is null`))
      .returning({ taskId: memberUploads.taskId });
    if (done.length === 0) return;
    await recordAudit(tx, {
      tenantId: tenant.id,
      actor: admin,
      action: 'member.bulk_upload',
      targetType: 'member_upload',
      targetId: context.taskId,
      changes: { total, invited: checkpoint!.invited, failed: failed.length },
    });
  });
  return outcomeOf(total, checkpoint!.invited, failed);
}

export function defineMemberUploadJob(deps: MemberUploadDeps & Pick<AppDeps, 'jobs' | 'config'>): MemberUploadJob {
  const { jobs } = deps;
  return jobs.define(MEMBER_UPLOAD_TASK, uploadPayload, (payload, context) => runUpload(deps, payload, context), {
    retryLimit: 2,
    retryDelaySeconds: deps.config.MEMBER_TRANSFER_RETRY_SECONDS,
    expireInSeconds: 3600,
    heartbeatSeconds: 10,
  });
}

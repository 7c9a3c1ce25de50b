import type { AppDeps } from '../../deps';
import { Readable } from 'node:stream';
import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { FALLBACK_LANGUAGE, LANGUAGES, localizedName } from '../../../shared/domain/language';
import type { MemberExportResult } from '../../../shared/api/admin/memberTransfer';
import type { Task } from '../../../shared/api/tasks';
import { MEMBER_EXPORT_BATCH_SIZE, MEMBER_EXPORT_TASK, MEMBER_FILE_FORMATS, type MemberFileFormat } from '../../../shared/domain/memberTransfer';
import type { Database } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { backgroundTasks, customFields, memberCustomFieldValues, memberGroupLinks, memberGroups, members } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type JobContext, type JobType, TaskFailure } from '../../jobs/queue';
import { SPREADSHEET_MIME, spreadsheetChunks } from '../../storage/spreadsheet';
import type { FileDownload } from '../files/service';
import { toTask } from '../tasks/service';
import { groupSortName } from '../memberGroups/service';

/** `config.MEMBER_EXPORT_TIME_LIMIT_SECONDS`: an export still running this long after it was asked for fails as timed out (spec §8). */
export type MemberExportDeps = Pick<AppDeps, 'db' | 'store' | 'config'>;

/** `language`: the asking admin's, which names the custom-field columns (jobs queued before it was kept: English). */
const exportPayload = z.object({ format: z.enum(MEMBER_FILE_FORMATS), language: z.enum(LANGUAGES).default(FALLBACK_LANGUAGE) });
export type MemberExportJob = JobType<z.infer<typeof exportPayload>>;

/** The fixed columns, then one per custom field (by its name in the admin's language; an upload takes either name back), then the credit limit. */
const FIXED_COLUMNS = ['name', 'email', 'groups', 'status', 'admin', 'member_type', 'sso_id', 'joined_at'] as const;

const fileKey = (tenantId: number, taskId: number, format: MemberFileFormat) => `tenants/${tenantId}/member-exports/${taskId}.${format}`;
export const exportDownloadPath = (taskId: number) => `/admin/members/export-task/${taskId}/download/`;

/** The tenant's members, a batch at a time in id order (keyset, so each batch is one index range). */
async function* memberBatches(
  db: Database,
  tenantId: number,
  fieldIds: number[],
  context: JobContext,
  deadline: number,
  total: number,
): AsyncGenerator<string[][]> {
  let lastId = 0;
  let processed = 0;
  for (;;) {
    if (context.signal.aborted) throw new Error('the export was interrupted by a shutdown');
    if (Date.now() > deadline) throw new TaskFailure('timed_out', 'the member export passed its time limit');
    const batch = await db
      .select({
        id: members.id,
        name: members.name,
        email: members.email,
        status: members.status,
        isAdmin: members.isAdmin,
        memberType: members.memberType,
        ssoId: members.ssoId,
        createdAt: members.createdAt,
        creditQuota: members.creditQuota,
        defaultGroupId: members.defaultMemberGroupId,
      })
      .from(members)
      .where(and(eq(members.tenantId, tenantId), gt(members.id, lastId)))
      .orderBy(asc(members.id))
      .limit(MEMBER_EXPORT_BATCH_SIZE);
    if (batch.length === 0) return;
    const ids = batch.map((m) => m.id);
    const [groups, values] = await Promise.all([
      db
        .select({ memberId: memberGroupLinks.memberId, groupId: memberGroups.id, name: groupSortName })
        .from(memberGroupLinks)
        .innerJoin(memberGroups, eq(memberGroups.id, memberGroupLinks.memberGroupId))
        .where(and(eq(memberGroupLinks.tenantId, tenantId), inArray(memberGroupLinks.memberId, ids)))
        .orderBy(asc(groupSortName)),
      fieldIds.length
        ? db
            .select({ memberId: memberCustomFieldValues.memberId, fieldId: memberCustomFieldValues.customFieldId, value: memberCustomFieldValues.value })
            .from(memberCustomFieldValues)
            .where(and(eq(memberCustomFieldValues.tenantId, tenantId), inArray(memberCustomFieldValues.memberId, ids)))
        : [],
    ]);
    const groupsOf = new Map<number, Array<{ groupId: number; name: string }>>();
    for (const g of groups) groupsOf.set(g.memberId, [...(groupsOf.get(g.memberId) ?? []), g]);
    const valueOf = new Map(values.map((v) => [`${v.memberId}:${v.fieldId}`, v.value ?? '']));
    const rows = batch.map((m) => {
      // The default group first, then the others by name.
      const own = (groupsOf.get(m.id) ?? []).sort((a, b) => Number(b.groupId === m.defaultGroupId) - Number(a.groupId === m.defaultGroupId));
      return [
        m.name,
        m.email,
        own.map((g) => g.name).join('; '),
        m.status,
        m.isAdmin ? 'yes' : 'no',
        m.memberType,
        m.ssoId ?? '',
        m.createdAt.toISOString(),
        ...fieldIds.map((id) => valueOf.get(`${m.id}:${id}`) ?? ''),
        m.creditQuota === null ? '' : String(m.creditQuota),
      ];
    });
    lastId = ids[ids.length - 1]!;
    processed += batch.length;
    // The count was taken at the start: members who joined since still go into the file.
    await context.reportProgress(processed, Math.max(total, processed));
    yield rows;
  }
}

/**
 * The export job: streams the members into the FileStore as CSV or XLSX, reporting progress per
 * batch. A rerun (the process died) writes the whole file again under the same key, replacing any
 * earlier attempt, so it is idempotent.
 */
async function runExport(deps: MemberExportDeps, payload: z.infer<typeof exportPayload>, context: JobContext): Promise<MemberExportResult> {
  const { db, store } = deps;
  const [task] = await db.select({ createdAt: backgroundTasks.createdAt }).from(backgroundTasks).where(eq(backgroundTasks.id, context.taskId));
  // Measured from the request, so retries after a crash share the one time limit.
  const deadline = (task?.createdAt.getTime() ?? Date.now()) + deps.config.MEMBER_EXPORT_TIME_LIMIT_SECONDS * 1000;
  const [counted] = await db.select({ n: count() }).from(members).where(eq(members.tenantId, context.tenantId));
  const total = counted?.n ?? 0;
  await context.reportProgress(0, total);
  const fields = await db
    .select({ id: customFields.id, ko_name: customFields.koName, en_name: customFields.enName })
    .from(customFields)
    .where(eq(customFields.tenantId, context.tenantId))
    .orderBy(asc(customFields.id));
  const header = [...FIXED_COLUMNS, ...fields.map((names) => localizedName(names, payload.language)), 'credit_limit'];
  const key = fileKey(context.tenantId, context.taskId, payload.format);
  let rows = 0;
  const counting = async function* () {
    for await (const batch of memberBatches(
      db,
      context.tenantId,
      fields.map((f) => f.id),
      context,
      deadline,
      total,
    )) {
      rows += batch.length;
      yield batch;
    }
  };
  // One chunk of read-ahead: the batches are read as fast as the store takes them, no faster.
  const body = Readable.from(spreadsheetChunks(payload.format, header, counting()), { highWaterMark: 1 });
  await store.put(key, body, { contentType: SPREADSHEET_MIME[payload.format] });
  const date = new Date().toISOString().slice(0, 10);
  return { format: payload.format, file_name: `members-${date}.${payload.format}`, rows, download_path: exportDownloadPath(context.taskId) };
}

export function defineMemberExportJob(deps: MemberExportDeps & Pick<AppDeps, 'jobs'>): MemberExportJob {
  const { jobs } = deps;
  const limitSeconds = deps.config.MEMBER_EXPORT_TIME_LIMIT_SECONDS;
  return jobs.define(MEMBER_EXPORT_TASK, exportPayload, (payload, context) => runExport(deps, payload, context), {
    retryLimit: 2,
    retryDelaySeconds: deps.config.MEMBER_TRANSFER_RETRY_SECONDS,
    // pg-boss's own limit comes after the job's, which fails with the readable `timed_out` first.
    expireInSeconds: limitSeconds + 60,
    heartbeatSeconds: 10,
  });
}

/**
 * GET /admin/members/export-task/: the export this admin already has running, or a new one. One at
 * a time per admin keeps a double click from starting two.
 */
export async function startMemberExport(
  { jobs, db }: Pick<AppDeps, 'jobs' | 'db'>,
  job: MemberExportJob,
  tenant: TenantRow,
  admin: MemberRow,
  format: MemberFileFormat,
): Promise<Task> {
  const owned = and(eq(backgroundTasks.tenantId, tenant.id), eq(backgroundTasks.memberId, admin.id), eq(backgroundTasks.kind, MEMBER_EXPORT_TASK));
  const [running] = await db
    .select()
    .from(backgroundTasks)
    .where(and(owned, eq(backgroundTasks.status, 'running')));
  if (running) return toTask(running);
  const taskId = await jobs.enqueue(
    job,
    { format, language: admin.language },
    { tenantId: tenant.id, memberId: admin.id },
    { fileKey: (id) => fileKey(tenant.id, id, format) },
  );
  const [created] = await db.select().from(backgroundTasks).where(eq(backgroundTasks.id, taskId));
  return toTask(created!);
}

/** The finished export file of a task this admin started; 404 otherwise, or when the file is gone (spec §8 "missing file url"). */
export async function downloadMemberExport(
  deps: Pick<MemberExportDeps, 'db' | 'store'>,
  tenant: TenantRow,
  admin: MemberRow,
  taskId: number,
): Promise<FileDownload> {
  const [task] = await deps.db
    .select()
    .from(backgroundTasks)
    .where(
      and(
        eq(backgroundTasks.id, taskId),
        eq(backgroundTasks.tenantId, tenant.id),
        eq(backgroundTasks.memberId, admin.id),
        eq(backgroundTasks.kind, MEMBER_EXPORT_TASK),
        eq(backgroundTasks.status, 'completed'),
      ),
    );
  if (!task) throw notFound('The export does not exist.');
  const result = task.result as MemberExportResult;
  const file = await deps.store.get(fileKey(tenant.id, task.id, result.format));
  if (!file) throw new AppError(404, 'export_file_missing', 'The export file is missing.');
  return { ...file, name: result.file_name, mime: SPREADSHEET_MIME[result.format] };
}

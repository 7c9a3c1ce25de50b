/**
 * Policies a new member agrees to (spec §3, §5): the public read of the sign-up form and the
 * console's list, create, edit and delete (docs/decisions/0045-tenant-settings.md).
 */
import { and, asc, count, eq, like, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminPolicy, createPolicyBodySchema, updatePolicyBodySchema } from '../../../shared/api/admin/policies';
import type { Policy } from '../../../shared/api/signup';
import { API_PREFIX } from '../../../shared/domain/http';
import { POLICIES_MAX, POLICY_FILE_KINDS, POLICY_FILE_MAX_BYTES, type PolicyKind } from '../../../shared/domain/tenantSettings';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { files, policies } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { diffFields } from '../../../shared/domain/audit';
import { type FileDownload, type FileRow, type UploadedPart, openStored, purgeExpiredFiles } from '../files/service';
import { type SettingsDeps, deleteSettingsFile, storeSettingsFile } from './service';

type PolicyRow = typeof policies.$inferSelect;

/** An uploaded document waits this long for the policy form to be saved, then the file sweep removes it. */
const UNSAVED_DOCUMENT_HOURS = 24;

/** What an audit row keeps of a policy (its document by file id). */
const auditedPolicy = (p: PolicyRow) => ({
  policy_name: p.policyName,
  kind: p.kind,
  is_mandatory: p.isMandatory,
  markdown_content: p.markdownContent,
  video_url: p.videoUrl,
  file_id: p.fileId,
});

const toPolicy = (p: PolicyRow): Policy => ({
  id: p.id,
  policy_name: p.policyName,
  kind: p.kind,
  is_mandatory: p.isMandatory,
  markdown_content: p.markdownContent,
  video_url: p.videoUrl,
  file_url: p.kind === 'file' && p.fileId ? `${API_PREFIX}/policies/${p.id}/file/` : null,
});

export async function listPolicies(db: Database, tenant: TenantRow): Promise<Policy[]> {
  const rows = await db.select().from(policies).where(eq(policies.tenantId, tenant.id)).orderBy(asc(policies.id));
  return rows.map(toPolicy);
}

/** The document of a file policy of this tenant; anything else is 404. */
export async function downloadPolicyFile({ db, store }: SettingsDeps, tenant: TenantRow, policyId: number): Promise<FileDownload> {
  const [row] = await db
    .select({ file: files })
    .from(policies)
    .innerJoin(files, and(eq(files.id, policies.fileId), eq(files.tenantId, tenant.id)))
    .where(and(eq(policies.tenantId, tenant.id), eq(policies.id, policyId), eq(policies.kind, 'file')));
  if (!row) throw notFound();
  return openStored(store, row.file);
}

/** Every policy of the tenant, or the one of `id`. */
export async function listAdminPolicies(db: Database, tenant: TenantRow, id?: number): Promise<AdminPolicy[]> {
  const rows = await db
    .select({ policy: policies, fileName: files.name })
    .from(policies)
    .leftJoin(files, eq(files.id, policies.fileId))
    .where(and(eq(policies.tenantId, tenant.id), id === undefined ? undefined : eq(policies.id, id)))
    .orderBy(asc(policies.id));
  return rows.map(({ policy, fileName }) => ({ ...toPolicy(policy), file_id: policy.fileId, file_name: fileName }));
}

async function adminPolicy(db: Database, tenant: TenantRow, id: number): Promise<AdminPolicy> {
  const [policy] = await listAdminPolicies(db, tenant, id);
  if (!policy) throw notFound();
  return policy;
}

export async function uploadPolicyFile(deps: SettingsDeps, tenant: TenantRow, member: MemberRow, parts: UploadedPart[]): Promise<FileRow> {
  const file = await storeSettingsFile(deps, tenant, member, parts, {
    kinds: POLICY_FILE_KINDS,
    maxBytes: POLICY_FILE_MAX_BYTES,
    folder: 'policies',
    expiresAt: new Date(Date.now() + UNSAVED_DOCUMENT_HOURS * 3_600_000),
  });
  await purgeExpiredFiles(deps, tenant.id).catch(() => undefined);
  return file;
}

interface PolicyContent {
  kind: PolicyKind;
  markdown_content?: string | null;
  video_url?: string | null;
  file_id?: number | null;
}

const missing = (what: string) =>
  new AppError(422, 'validation_error', `A ${what} policy needs its ${what === 'markdown' ? 'text' : what === 'video' ? 'video URL' : 'document'}.`);

/**
 * The content of the policy's kind, and nothing else (so switching kinds leaves no stale text): a
 * document must be one uploaded for policies in this tenant and not another policy's.
 */
async function contentColumns(db: Database, tenant: TenantRow, content: PolicyContent, policyId?: number) {
  if (content.kind === 'markdown') {
    if (!content.markdown_content?.trim()) throw missing('markdown');
    return { markdownContent: content.markdown_content, videoUrl: null, fileId: null };
  }
  if (content.kind === 'video') {
    if (!content.video_url) throw missing('video');
    return { markdownContent: null, videoUrl: content.video_url, fileId: null };
  }
  if (!content.file_id) throw missing('file');
  const [file] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.tenantId, tenant.id), eq(files.id, content.file_id), like(files.storageKey, `tenants/${tenant.id}/policies/%`)));
  const [taken] = await db
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.tenantId, tenant.id), eq(policies.fileId, content.file_id), policyId ? ne(policies.id, policyId) : undefined));
  if (!file || taken) throw new AppError(422, 'validation_error', 'The document is not an uploaded policy document.');
  return { markdownContent: null, videoUrl: null, fileId: file.id };
}

/** A document a policy took is kept and readable by the public route (which checks the policy). */
async function keepFile(db: Queryable, fileId: number | null): Promise<void> {
  if (fileId !== null) await db.update(files).set({ shouldExpire: false, expiresAt: null, accessLevel: 'public' }).where(eq(files.id, fileId));
}

export async function createPolicy(
  deps: SettingsDeps,
  tenant: TenantRow,
  actor: AuditActor,
  body: z.output<typeof createPolicyBodySchema>,
): Promise<AdminPolicy> {
  const { db } = deps;
  const [existing] = await db.select({ n: count() }).from(policies).where(eq(policies.tenantId, tenant.id));
  if ((existing?.n ?? 0) >= POLICIES_MAX) throw new AppError(422, 'validation_error', `A workspace can have at most ${POLICIES_MAX} policies.`);
  const columns = await contentColumns(db, tenant, body);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(policies)
      .values({ tenantId: tenant.id, policyName: body.policy_name, kind: body.kind, isMandatory: body.is_mandatory, ...columns })
      .returning();
    if (!row) throw new Error('Policy insert returned no row');
    await keepFile(tx, columns.fileId);
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'policy.create', targetType: 'policy', targetId: row.id, changes: auditedPolicy(row) });
    return row.id;
  });
  return adminPolicy(db, tenant, id);
}

export async function updatePolicy(
  deps: SettingsDeps,
  tenant: TenantRow,
  actor: AuditActor,
  id: number,
  patch: z.output<typeof updatePolicyBodySchema>,
): Promise<AdminPolicy> {
  const { db } = deps;
  const [policy] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.tenantId, tenant.id), eq(policies.id, id)));
  if (!policy) throw notFound();
  const contentChanges = patch.kind !== undefined || patch.markdown_content !== undefined || patch.video_url !== undefined || patch.file_id !== undefined;
  const columns = contentChanges
    ? await contentColumns(
        db,
        tenant,
        {
          kind: patch.kind ?? policy.kind,
          markdown_content: patch.markdown_content === undefined ? policy.markdownContent : patch.markdown_content,
          video_url: patch.video_url === undefined ? policy.videoUrl : patch.video_url,
          file_id: patch.file_id === undefined ? policy.fileId : patch.file_id,
        },
        policy.id,
      )
    : null;
  const fileReplaced = columns !== null && columns.fileId !== policy.fileId;
  await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(policies)
      .set({ policyName: patch.policy_name, kind: patch.kind, isMandatory: patch.is_mandatory, ...columns })
      .where(eq(policies.id, policy.id))
      .returning();
    if (!updated) throw notFound();
    if (fileReplaced) await keepFile(tx, columns?.fileId ?? null);
    const changes = { policy_name: updated.policyName, ...diffFields(auditedPolicy(policy), auditedPolicy(updated)) };
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'policy.update', targetType: 'policy', targetId: policy.id, changes });
  });
  // The document it replaced is nobody's any more.
  if (fileReplaced) await deleteSettingsFile(deps, tenant.id, policy.fileId);
  return adminPolicy(db, tenant, policy.id);
}

/** The agreements to it go too (they cascade); so does its document. */
export async function deletePolicy(deps: SettingsDeps, tenant: TenantRow, actor: AuditActor, id: number): Promise<void> {
  const removed = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(policies)
      .where(and(eq(policies.tenantId, tenant.id), eq(policies.id, id)))
      .returning();
    if (!row) throw notFound();
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'policy.delete', targetType: 'policy', targetId: id, changes: auditedPolicy(row) });
    return row;
  });
  await deleteSettingsFile(deps, tenant.id, removed.fileId);
}

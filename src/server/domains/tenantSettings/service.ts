/**
 * Branding and support settings of a tenant (name, logo, support address, manual link) and the
 * uploads of the console's settings (the logo, a policy's document): docs/decisions/0045-tenant-settings.md.
 */
import type { AppDeps } from '../../deps';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { TenantSettings, updateTenantSettingsBodySchema } from '../../../shared/api/admin/tenantSettings';
import { API_PREFIX } from '../../../shared/domain/http';
import type { FileKind } from '../../../shared/domain/files';
import { FILE_NAME_MAX } from '../../../shared/domain/files';
import { LOGO_KINDS, LOGO_MAX_BYTES } from '../../../shared/domain/tenantSettings';
import type { Database } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { files, tenants } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { UnsupportedFileTypeError, checkFileType } from '../../storage/fileType';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { diffFields } from '../../../shared/domain/audit';
import { type FileDownload, type FileRow, type UploadedPart, documentRefusal, openStored } from '../files/service';

export type SettingsDeps = Pick<AppDeps, 'db' | 'store'>;

export const logoUrl = (fileId: number) => `${API_PREFIX}/tenants/logo/${fileId}/`;

export const tenantSettings = (tenant: TenantRow): TenantSettings => ({
  tenant_name: tenant.name,
  logo_url: tenant.logoUrl,
  support_email: tenant.supportEmail,
  manual_url: tenant.manualUrl,
  password_min_length: tenant.passwordMinLength,
});

/** Read from the table, not the request's tenant row, which may be a few seconds old (plugins/tenant cache). */
export async function readTenantSettings(db: Database, tenant: TenantRow): Promise<TenantSettings> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenant.id));
  if (!row) throw notFound();
  return tenantSettings(row);
}

/** Changes the tenant row and records what changed, in one transaction (the table, not the cached row, is the "before"). */
async function changeTenant(db: Database, tenant: TenantRow, actor: AuditActor, set: Partial<TenantRow>): Promise<TenantSettings> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, tenant.id)).for('update');
    const [row] = await tx.update(tenants).set(set).where(eq(tenants.id, tenant.id)).returning();
    if (!before || !row) throw notFound();
    const changes = diffFields(tenantSettings(before), tenantSettings(row));
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'tenant_settings.update', targetType: 'tenant_settings', changes });
    return tenantSettings(row);
  });
}

export async function updateTenantSettings(
  db: Database,
  tenant: TenantRow,
  actor: AuditActor,
  patch: z.output<typeof updateTenantSettingsBodySchema>,
): Promise<TenantSettings> {
  return changeTenant(db, tenant, actor, {
    name: patch.tenant_name,
    supportEmail: patch.support_email,
    manualUrl: patch.manual_url,
    passwordMinLength: patch.password_min_length,
  });
}

/** What one settings upload accepts and where its bytes go (`tenants/<id>/<folder>/<uuid>`). */
export interface UploadRule {
  kinds: readonly FileKind[];
  maxBytes: number;
  folder: 'logo' | 'policies';
  /** Kept until this date unless something takes it (an unsaved policy's document); null: kept. */
  expiresAt: Date | null;
}

/**
 * Stores one uploaded file after the checks of spec §8: 422 without exactly one file or with a bad
 * name, 413 too large, 415 not one of the kinds (read from the content). The row is the tenant's,
 * uploaded by `member`, never parsed (nobody chats with it).
 */
export async function storeSettingsFile(
  { db, store }: SettingsDeps,
  tenant: TenantRow,
  member: MemberRow,
  parts: UploadedPart[],
  rule: UploadRule,
): Promise<FileRow> {
  const [part] = parts;
  if (!part || parts.length > 1) throw new AppError(422, 'validation_error', 'Send exactly one file.');
  const name = part.fileName.trim();
  if (name.length < 1 || name.length > FILE_NAME_MAX) throw new AppError(422, 'validation_error', `A file name must be 1 to ${FILE_NAME_MAX} characters long.`);
  if (part.bytes.length > rule.maxBytes) throw new AppError(413, 'file_too_large', 'The file is too large.', { name, max_bytes: rule.maxBytes });
  let mime: string;
  try {
    mime = checkFileType(part.bytes, { fileName: name, claimedType: part.claimedType, accept: rule.kinds }).mime;
  } catch (error) {
    if (error instanceof UnsupportedFileTypeError) throw new AppError(415, 'unsupported_file_type', error.message, { name, allowed_kinds: rule.kinds });
    throw documentRefusal(error, { name }) ?? error;
  }
  const storageKey = `tenants/${tenant.id}/${rule.folder}/${randomUUID()}`;
  await store.put(storageKey, part.bytes, { contentType: mime });
  const [row] = await db
    .insert(files)
    .values({
      tenantId: tenant.id,
      memberId: member.id,
      name,
      mimeType: mime,
      sizeBytes: part.bytes.length,
      storageKey,
      accessLevel: rule.expiresAt ? 'private' : 'public',
      shouldExpire: rule.expiresAt !== null,
      expiresAt: rule.expiresAt,
      parseStatus: 'parsed',
      parsedPercentage: 100,
    })
    .returning();
  if (!row) throw new Error('File insert returned no row');
  return row;
}

/** Deletes a settings file (row and bytes); nothing when there is none. */
export async function deleteSettingsFile({ db, store }: SettingsDeps, tenantId: number, fileId: number | null): Promise<void> {
  if (fileId === null) return;
  const [row] = await db
    .delete(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.id, fileId)))
    .returning({ storageKey: files.storageKey });
  if (row) await store.delete(row.storageKey);
}

/** The logo file the tenant has now (the request's tenant row may be a few seconds old: plugins/tenant cache). */
async function currentLogoFileId(db: Database, tenant: TenantRow): Promise<number | null> {
  const [row] = await db.select({ logoFileId: tenants.logoFileId }).from(tenants).where(eq(tenants.id, tenant.id));
  return row?.logoFileId ?? null;
}

/** A new logo replaces the old one, whose file is deleted; its URL changes, so no cache shows the old one. */
export async function uploadLogo(deps: SettingsDeps, tenant: TenantRow, member: MemberRow, parts: UploadedPart[]): Promise<TenantSettings> {
  const file = await storeSettingsFile(deps, tenant, member, parts, { kinds: LOGO_KINDS, maxBytes: LOGO_MAX_BYTES, folder: 'logo', expiresAt: null });
  return setLogo(deps, tenant, member, file.id);
}

export const deleteLogo = (deps: SettingsDeps, tenant: TenantRow, actor: AuditActor): Promise<TenantSettings> => setLogo(deps, tenant, actor, null);

async function setLogo(deps: SettingsDeps, tenant: TenantRow, actor: AuditActor, fileId: number | null): Promise<TenantSettings> {
  const previous = await currentLogoFileId(deps.db, tenant);
  const settings = await changeTenant(deps.db, tenant, actor, { logoFileId: fileId, logoUrl: fileId === null ? null : logoUrl(fileId) });
  if (previous !== fileId) await deleteSettingsFile(deps, tenant.id, previous);
  return settings;
}

/** Public: only the tenant's current logo; any other id is 404. */
export async function downloadLogo({ db, store }: SettingsDeps, tenant: TenantRow, fileId: number): Promise<FileDownload> {
  if ((await currentLogoFileId(db, tenant)) !== fileId) throw notFound();
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenant.id), eq(files.id, fileId)));
  if (!row) throw notFound();
  return openStored(store, row);
}

/**
 * Custom fields (spec §3, §5): the rules a member's value follows wherever it is given (sign-up,
 * My page), and the admin console's list, create, edit and delete (docs/ARCHITECTURE.md "Tenant settings").
 */
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createCustomFieldBodySchema, updateCustomFieldBodySchema } from '../../shared/api/admin/customFields';
import type { AdminCustomField } from '../../shared/api/admin/customFields';
import type { CustomField } from '../../shared/api/signup';
import { validateCustomFieldValue } from '../../shared/domain/signup';
import { CUSTOM_FIELDS_MAX } from '../../shared/domain/tenantSettings';
import type { Database } from '../db/client';
import type { TenantRow } from '../db/rows';
import { customFields, memberCustomFieldValues } from '../db/schema';
import { AppError, notFound } from '../errors';
import { type AuditActor, recordAudit } from './auditLog';
import { diffFields } from '../../shared/domain/audit';

export type CustomFieldRow = typeof customFields.$inferSelect;
type Queryable = Pick<Database, 'select'>;

export const toCustomField = (f: CustomFieldRow): CustomField => ({
  id: f.id,
  field_name: f.fieldName,
  field_type: f.fieldType,
  is_signup_field: f.isSignupField,
  is_searchable: f.isSearchable,
  is_required: f.isRequired,
  is_editable: f.isEditable,
  is_unique: f.isUnique,
});

const fieldError = (status: number, code: 'required_field_missing' | 'invalid_field_value' | 'value_already_used', message: string, fieldName: string) =>
  new AppError(status, code, message, { field_name: fieldName });

/**
 * One value against its field (spec §5): "{field_name} is required.", "{field_name} must be a
 * number.", and a unique field's value must not be another member's (409 `value_already_used`).
 * `memberId` is the member the value belongs to, whose own current value is no clash.
 */
export async function checkFieldValue(db: Queryable, field: CustomFieldRow, value: string | undefined, memberId?: number): Promise<void> {
  const problem = validateCustomFieldValue({ is_required: field.isRequired, field_type: field.fieldType }, value);
  if (problem === 'signup:validation.field_required') throw fieldError(422, 'required_field_missing', `${field.fieldName} is required.`, field.fieldName);
  if (problem) throw fieldError(422, 'invalid_field_value', `${field.fieldName} must be a number.`, field.fieldName);
  const text = value?.trim();
  if (!field.isUnique || !text) return;
  const [taken] = await db
    .select({ memberId: memberCustomFieldValues.memberId })
    .from(memberCustomFieldValues)
    .where(
      and(
        eq(memberCustomFieldValues.customFieldId, field.id),
        eq(memberCustomFieldValues.value, text),
        memberId === undefined ? undefined : ne(memberCustomFieldValues.memberId, memberId),
      ),
    )
    .limit(1);
  if (taken) throw fieldError(409, 'value_already_used', `${field.fieldName} is already used by another member.`, field.fieldName);
}

async function valueCounts(db: Database, fieldIds: number[]): Promise<Map<number, number>> {
  if (fieldIds.length === 0) return new Map();
  const rows = await db
    .select({ id: memberCustomFieldValues.customFieldId, n: count() })
    .from(memberCustomFieldValues)
    .where(inArray(memberCustomFieldValues.customFieldId, fieldIds))
    .groupBy(memberCustomFieldValues.customFieldId);
  return new Map(rows.map((row) => [row.id, row.n]));
}

async function toAdminFields(db: Database, rows: CustomFieldRow[]): Promise<AdminCustomField[]> {
  const counts = await valueCounts(db, rows.map((row) => row.id));
  return rows.map((row) => ({ ...toCustomField(row), value_count: counts.get(row.id) ?? 0 }));
}

export async function listAdminCustomFields(db: Database, tenant: TenantRow): Promise<AdminCustomField[]> {
  const rows = await db.select().from(customFields).where(eq(customFields.tenantId, tenant.id)).orderBy(asc(customFields.id));
  return toAdminFields(db, rows);
}

async function findField(db: Database, tenant: TenantRow, id: number): Promise<CustomFieldRow> {
  const [row] = await db.select().from(customFields).where(and(eq(customFields.tenantId, tenant.id), eq(customFields.id, id)));
  if (!row) throw notFound();
  return row;
}

/** Two fields of one name would be one column twice in sign-up and member lists. */
async function assertNameFree(db: Database, tenant: TenantRow, name: string, exceptId?: number): Promise<void> {
  const [clash] = await db
    .select({ id: customFields.id })
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenant.id), sql`lower(${customFields.fieldName}) = lower(${name})`, exceptId ? ne(customFields.id, exceptId) : undefined))
    .limit(1);
  if (clash) throw new AppError(409, 'field_name_taken', 'A custom field of this name exists already.', { field_name: name });
}

/** What an audit row keeps of a field: its settings, without the id it is filed under. */
const auditedField = (row: CustomFieldRow) => {
  const { id: _id, ...settings } = toCustomField(row);
  return settings;
};

export async function createCustomField(db: Database, tenant: TenantRow, actor: AuditActor, body: z.output<typeof createCustomFieldBodySchema>): Promise<AdminCustomField> {
  const [existing] = await db.select({ n: count() }).from(customFields).where(eq(customFields.tenantId, tenant.id));
  if ((existing?.n ?? 0) >= CUSTOM_FIELDS_MAX) throw new AppError(422, 'validation_error', `A workspace can have at most ${CUSTOM_FIELDS_MAX} custom fields.`);
  await assertNameFree(db, tenant, body.field_name);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(customFields)
      .values({
        tenantId: tenant.id,
        fieldName: body.field_name,
        fieldType: body.field_type,
        isSignupField: body.is_signup_field,
        isSearchable: body.is_searchable,
        isRequired: body.is_required,
        isEditable: body.is_editable,
        isUnique: body.is_unique,
      })
      .returning();
    if (!inserted) throw new Error('Custom field insert returned no row');
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'custom_field.create', targetType: 'custom_field', targetId: inserted.id, changes: auditedField(inserted) });
    return inserted;
  });
  return { ...toCustomField(row), value_count: 0 };
}

/**
 * Stored values must already obey a rule the field takes on: a field made unique while two members
 * share a value, or made a number field while a value is not a number, is refused (409) rather
 * than leaving values that break it.
 */
async function assertValuesFit(db: Database, field: CustomFieldRow, patch: z.output<typeof updateCustomFieldBodySchema>): Promise<void> {
  if (patch.is_unique && !field.isUnique) {
    const [shared] = await db
      .select({ value: memberCustomFieldValues.value })
      .from(memberCustomFieldValues)
      .where(eq(memberCustomFieldValues.customFieldId, field.id))
      .groupBy(memberCustomFieldValues.value)
      .having(sql`count(*) > 1`)
      .limit(1);
    if (shared) {
      throw new AppError(409, 'values_not_unique', `Members share the value "${shared.value}" of ${field.fieldName}: make their values different first.`, {
        field_name: field.fieldName,
        value: shared.value,
      });
    }
  }
  if (patch.field_type === 'number' && field.fieldType !== 'number') {
    const values = await db.select({ value: memberCustomFieldValues.value }).from(memberCustomFieldValues).where(eq(memberCustomFieldValues.customFieldId, field.id));
    const wrong = values.find(({ value }) => validateCustomFieldValue({ is_required: false, field_type: 'number' }, value ?? undefined));
    if (wrong) {
      throw new AppError(409, 'values_not_numbers', `A member's value "${wrong.value}" of ${field.fieldName} is not a number.`, {
        field_name: field.fieldName,
        value: wrong.value,
      });
    }
  }
}

export async function updateCustomField(
  db: Database,
  tenant: TenantRow,
  actor: AuditActor,
  id: number,
  patch: z.output<typeof updateCustomFieldBodySchema>,
): Promise<AdminCustomField> {
  const field = await findField(db, tenant, id);
  if (patch.field_name !== undefined) await assertNameFree(db, tenant, patch.field_name, field.id);
  await assertValuesFit(db, field, patch);
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(customFields)
      .set({
        fieldName: patch.field_name,
        fieldType: patch.field_type,
        isSignupField: patch.is_signup_field,
        isSearchable: patch.is_searchable,
        isRequired: patch.is_required,
        isEditable: patch.is_editable,
        isUnique: patch.is_unique,
      })
      .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.id, field.id)))
      .returning();
    if (!updated) throw notFound();
    const changes = { field_name: updated.fieldName, ...diffFields(auditedField(field), auditedField(updated)) };
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'custom_field.update', targetType: 'custom_field', targetId: updated.id, changes });
    return updated;
  });
  return { ...toCustomField(row), value_count: (await valueCounts(db, [row.id])).get(row.id) ?? 0 };
}

/** The members' values of the field go with it (the foreign key cascades). */
export async function deleteCustomField(db: Database, tenant: TenantRow, actor: AuditActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(customFields)
      .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.id, id)))
      .returning();
    if (!removed) throw notFound();
    await recordAudit(tx, { tenantId: tenant.id, actor, action: 'custom_field.delete', targetType: 'custom_field', targetId: id, changes: auditedField(removed) });
  });
}

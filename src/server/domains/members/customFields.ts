/**
 * Custom fields (spec §3, §5): the rules a member's value follows wherever it is given (sign-up,
 * My page), and the admin console's list, create, edit and delete (docs/decisions/0045-tenant-settings.md).
 */
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createCustomFieldBodySchema, updateCustomFieldBodySchema } from '../../../shared/api/admin/customFields';
import type { AdminCustomField } from '../../../shared/api/admin/customFields';
import type { CustomField } from '../../../shared/api/signup';
import { validateCustomFieldValue } from '../../../shared/domain/signup';
import { type BilingualName, hasOneName, localizedName, type SupportedLanguage } from '../../../shared/domain/language';
import { CUSTOM_FIELDS_MAX } from '../../../shared/domain/tenantSettings';
import type { Database } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { isUniqueViolation } from '../../db/databaseErrors';
import { customFields, memberCustomFieldValues } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { givenNames } from '../../shared/bilingualNames';
import { diffFields } from '../../../shared/domain/audit';

export type CustomFieldRow = typeof customFields.$inferSelect;
/** The admin who edits fields: the spec's single `field_name` is a name in their language. */
type Admin = AuditActor & Pick<MemberRow, 'language'>;
type Queryable = Pick<Database, 'select'>;

const namesOf = (f: Pick<CustomFieldRow, 'koName' | 'enName'>): BilingualName => ({ ko_name: f.koName, en_name: f.enName });

/** A field's two names, and the spec's `field_name`: the one a reader in `language` is shown. */
export const fieldNames = (f: Pick<CustomFieldRow, 'koName' | 'enName'>, language: SupportedLanguage) => ({
  ...namesOf(f),
  field_name: localizedName(namesOf(f), language),
});

export const toCustomField = (f: CustomFieldRow, language: SupportedLanguage): CustomField => ({
  id: f.id,
  ...fieldNames(f, language),
  field_type: f.fieldType,
  is_signup_field: f.isSignupField,
  is_searchable: f.isSearchable,
  is_required: f.isRequired,
  is_editable: f.isEditable,
  is_unique: f.isUnique,
});

/**
 * An error about one field's value; the details name the field in the reader's language and by id,
 * so a form can put the message under its input whatever language it shows.
 */
export function fieldValueError(
  status: number,
  code: 'required_field_missing' | 'invalid_field_value' | 'value_already_used' | 'field_not_editable',
  field: CustomFieldRow,
  language: SupportedLanguage,
  message: (name: string) => string,
): AppError {
  const name = localizedName(namesOf(field), language);
  return new AppError(status, code, message(name), { field_name: name, custom_field_id: field.id });
}

/**
 * One value against its field (spec §5): "{field_name} is required.", "{field_name} must be a
 * number.", and a unique field's value must not be another member's (409 `value_already_used`).
 * `memberId` is the member the value belongs to, whose own current value is no clash; `language`
 * the reader's, whom the message names the field for.
 */
export async function checkFieldValue(
  db: Queryable,
  field: CustomFieldRow,
  value: string | undefined,
  language: SupportedLanguage,
  memberId?: number,
): Promise<void> {
  const problem = validateCustomFieldValue({ is_required: field.isRequired, field_type: field.fieldType }, value);
  if (problem === 'signup:validation.field_required') throw fieldValueError(422, 'required_field_missing', field, language, (name) => `${name} is required.`);
  if (problem) throw fieldValueError(422, 'invalid_field_value', field, language, (name) => `${name} must be a number.`);
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
  if (taken) throw fieldValueError(409, 'value_already_used', field, language, (name) => `${name} is already used by another member.`);
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

async function toAdminField(db: Database, row: CustomFieldRow, language: SupportedLanguage): Promise<AdminCustomField> {
  return { ...toCustomField(row, language), value_count: (await valueCounts(db, [row.id])).get(row.id) ?? 0 };
}

export async function listAdminCustomFields(db: Database, tenant: TenantRow, language: SupportedLanguage): Promise<AdminCustomField[]> {
  const rows = await db.select().from(customFields).where(eq(customFields.tenantId, tenant.id)).orderBy(asc(customFields.id));
  const counts = await valueCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...toCustomField(row, language), value_count: counts.get(row.id) ?? 0 }));
}

async function findField(db: Database, tenant: TenantRow, id: number): Promise<CustomFieldRow> {
  const [row] = await db
    .select()
    .from(customFields)
    .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.id, id)));
  if (!row) throw notFound();
  return row;
}

const nameTaken = (field: keyof BilingualName, name: string) =>
  new AppError(409, 'field_name_taken', 'A custom field of this name exists already.', { field, field_name: name });

/**
 * Two fields of one name would be one column twice in sign-up, member lists and the upload file,
 * which finds a field's column by either name: so neither name may be another field's Korean or
 * English name, in any letter case. '' is "no name in this language" and never clashes.
 */
async function assertNamesFree(db: Database, tenant: TenantRow, names: BilingualName, exceptId?: number): Promise<void> {
  for (const key of ['ko_name', 'en_name'] as const) {
    const name = names[key];
    if (name === '') continue;
    const [clash] = await db
      .select({ id: customFields.id })
      .from(customFields)
      .where(
        and(
          eq(customFields.tenantId, tenant.id),
          sql`(lower(${customFields.koName}) = lower(${name}) or lower(${customFields.enName}) = lower(${name}))`,
          exceptId ? ne(customFields.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (clash) throw nameTaken(key, name);
  }
}

/** Two admins naming two fields alike at once: the unique indexes refuse the second, which gets the same 409. */
async function namesUnique<T>(names: BilingualName, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(names.ko_name ? 'ko_name' : 'en_name', names.ko_name || names.en_name);
    throw error;
  }
}

/** What an audit row keeps of a field: its settings, without the id it is filed under, named in English (else Korean) like a group. */
const auditedField = (row: CustomFieldRow) => {
  const { id: _id, ...settings } = toCustomField(row, 'en');
  return settings;
};

export async function createCustomField(
  db: Database,
  tenant: TenantRow,
  actor: Admin,
  body: z.output<typeof createCustomFieldBodySchema>,
): Promise<AdminCustomField> {
  const [existing] = await db.select({ n: count() }).from(customFields).where(eq(customFields.tenantId, tenant.id));
  if ((existing?.n ?? 0) >= CUSTOM_FIELDS_MAX) throw new AppError(422, 'validation_error', `A workspace can have at most ${CUSTOM_FIELDS_MAX} custom fields.`);
  const given = givenNames(body, body.field_name, actor.language, (key) => body[key] === '');
  const names = { ko_name: given.ko_name ?? '', en_name: given.en_name ?? '' };
  await assertNamesFree(db, tenant, names);
  const row = await namesUnique(names, () =>
    db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(customFields)
        .values({
          tenantId: tenant.id,
          koName: names.ko_name,
          enName: names.en_name,
          fieldType: body.field_type,
          isSignupField: body.is_signup_field,
          isSearchable: body.is_searchable,
          isRequired: body.is_required,
          isEditable: body.is_editable,
          isUnique: body.is_unique,
        })
        .returning();
      if (!inserted) throw new Error('Custom field insert returned no row');
      await recordAudit(tx, {
        tenantId: tenant.id,
        actor,
        action: 'custom_field.create',
        targetType: 'custom_field',
        targetId: inserted.id,
        changes: auditedField(inserted),
      });
      return inserted;
    }),
  );
  return { ...toCustomField(row, actor.language), value_count: 0 };
}

/**
 * Stored values must already obey a rule the field takes on: a field made unique while two members
 * share a value, or made a number field while a value is not a number, is refused (409) rather
 * than leaving values that break it.
 */
async function assertValuesFit(
  db: Database,
  field: CustomFieldRow,
  patch: z.output<typeof updateCustomFieldBodySchema>,
  language: SupportedLanguage,
): Promise<void> {
  const fieldName = localizedName(namesOf(field), language);
  if (patch.is_unique && !field.isUnique) {
    const [shared] = await db
      .select({ value: memberCustomFieldValues.value })
      .from(memberCustomFieldValues)
      .where(eq(memberCustomFieldValues.customFieldId, field.id))
      .groupBy(memberCustomFieldValues.value)
      .having(sql`count(*) > 1`)
      .limit(1);
    if (shared) {
      throw new AppError(409, 'values_not_unique', `Members share the value "${shared.value}" of ${fieldName}: make their values different first.`, {
        field_name: fieldName,
        value: shared.value,
      });
    }
  }
  if (patch.field_type === 'number' && field.fieldType !== 'number') {
    const values = await db
      .select({ value: memberCustomFieldValues.value })
      .from(memberCustomFieldValues)
      .where(eq(memberCustomFieldValues.customFieldId, field.id));
    const wrong = values.find(({ value }) => validateCustomFieldValue({ is_required: false, field_type: 'number' }, value ?? undefined));
    if (wrong) {
      throw new AppError(409, 'values_not_numbers', `A member's value "${wrong.value}" of ${fieldName} is not a number.`, {
        field_name: fieldName,
        value: wrong.value,
      });
    }
  }
}

export async function updateCustomField(
  db: Database,
  tenant: TenantRow,
  actor: Admin,
  id: number,
  patch: z.output<typeof updateCustomFieldBodySchema>,
): Promise<AdminCustomField> {
  const field = await findField(db, tenant, id);
  const given = givenNames(patch, patch.field_name, actor.language, (key) => patch[key] === undefined);
  const names = { ko_name: given.ko_name ?? field.koName, en_name: given.en_name ?? field.enName };
  if (!hasOneName(names)) throw new AppError(422, 'field_name_required', 'A custom field needs a Korean or an English name.');
  await assertNamesFree(db, tenant, { ko_name: given.ko_name ?? '', en_name: given.en_name ?? '' }, field.id);
  await assertValuesFit(db, field, patch, actor.language);
  const row = await namesUnique(names, () =>
    db.transaction(async (tx) => {
      const [updated] = await tx
        .update(customFields)
        .set({
          koName: given.ko_name,
          enName: given.en_name,
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
      const changes = { field_name: auditedField(updated).field_name, ...diffFields(auditedField(field), auditedField(updated)) };
      await recordAudit(tx, { tenantId: tenant.id, actor, action: 'custom_field.update', targetType: 'custom_field', targetId: updated.id, changes });
      return updated;
    }),
  );
  return toAdminField(db, row, actor.language);
}

/** The members' values of the field go with it (the foreign key cascades). */
export async function deleteCustomField(db: Database, tenant: TenantRow, actor: AuditActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(customFields)
      .where(and(eq(customFields.tenantId, tenant.id), eq(customFields.id, id)))
      .returning();
    if (!removed) throw notFound();
    await recordAudit(tx, {
      tenantId: tenant.id,
      actor,
      action: 'custom_field.delete',
      targetType: 'custom_field',
      targetId: id,
      changes: auditedField(removed),
    });
  });
}

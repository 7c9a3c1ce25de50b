import { z } from 'zod';
import { CUSTOM_FIELD_NAME_MAX, CUSTOM_FIELD_TYPES } from '../../domain/tenantSettings';
import { bilingualNameSchema, idParamsSchema, okSchema } from '../common';
import { hasOneName } from '../../domain/language';
import { defineEndpoint } from '../endpoint';
import { customFieldSchema } from '../signup';

/** A custom field as the console shows it: the flags of spec §3 and how many members have a value. */
export const adminCustomFieldSchema = customFieldSchema.extend({ value_count: z.number().int() });
export type AdminCustomField = z.infer<typeof adminCustomFieldSchema>;

const flags = {
  field_type: z.enum(CUSTOM_FIELD_TYPES),
  is_signup_field: z.boolean(),
  is_searchable: z.boolean(),
  is_required: z.boolean(),
  is_editable: z.boolean(),
  is_unique: z.boolean(),
};
const fieldName = bilingualNameSchema(CUSTOM_FIELD_NAME_MAX);
/**
 * A field's names (docs/decisions/0024-bilingual-names-fields-modes.md): Korean and English, one of the
 * two at least. `field_name`, the spec's single name, is taken as the name in the admin's language
 * (Korean for a Korean admin, English otherwise) when the body does not give that one itself.
 */
const names = { ko_name: fieldName, en_name: fieldName, field_name: fieldName };

export const createCustomFieldBodySchema = z
  .object({
    ko_name: fieldName.default(''),
    en_name: fieldName.default(''),
    field_name: fieldName.optional(),
    field_type: flags.field_type.default('text'),
    is_signup_field: flags.is_signup_field.default(true),
    is_searchable: flags.is_searchable.default(false),
    is_required: flags.is_required.default(false),
    is_editable: flags.is_editable.default(true),
    is_unique: flags.is_unique.default(false),
  })
  .refine((body) => hasOneName(body) || Boolean(body.field_name), { message: 'tenantSettings:validation.one_name', path: ['ko_name'] });

/** A rename that would leave the field without a name is 422 `field_name_required`. */
export const updateCustomFieldBodySchema = z
  .object({ ...names, ...flags })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' });

export const listAdminCustomFields = defineEndpoint({
  method: 'GET',
  path: '/admin/custom-fields/',
  access: 'admin',
  errors: {},
  response: z.object({ items: z.array(adminCustomFieldSchema) }),
  summary: 'Every custom field of the tenant (sign-up fields and the others), oldest first',
  tags: ['admin'],
});

export const createCustomField = defineEndpoint({
  method: 'POST',
  path: '/admin/custom-fields/',
  access: 'admin',
  errors: { 409: ['field_name_taken'], 422: ['validation_error'] },
  body: createCustomFieldBodySchema,
  response: adminCustomFieldSchema,
  summary:
    'Add a custom field: a Korean or an English name, or both (or the spec’s `field_name`, the name in the admin’s language); 409 `field_name_taken` when another field has either name, in any letter case',
  tags: ['admin'],
});

export const updateCustomField = defineEndpoint({
  method: 'PATCH',
  path: '/admin/custom-fields/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 409: ['field_name_taken', 'values_not_numbers', 'values_not_unique'], 422: ['field_name_required'] },
  params: idParamsSchema,
  body: updateCustomFieldBodySchema,
  response: adminCustomFieldSchema,
  summary:
    'Change a custom field; 409 `field_name_taken` as on create, 422 `field_name_required` when neither name would be left, 409 `values_not_unique` when made unique while members share a value, `values_not_numbers` when made a number field while a value is not one',
  tags: ['admin'],
});

export const deleteCustomField = defineEndpoint({
  method: 'DELETE',
  path: '/admin/custom-fields/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: "Delete a custom field and every member's value of it",
  tags: ['admin'],
});

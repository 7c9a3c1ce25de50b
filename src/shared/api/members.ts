import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, idSchema, languageSchema } from './common';
import { CUSTOM_FIELD_TYPES } from '../domain/tenantSettings';

export const memberStatusSchema = z.enum(['pending', 'approved', 'rejected', 'deactivated', 'invited']);

/** The spec's single `field_name` next to the field's two names, as a reader's interface shows them. */
export const fieldNamesSchema = z.object({
  ko_name: z.string(),
  en_name: z.string(),
  /**
   * Spec §3: the name in the reader's language (the `language` asked for where a list takes one,
   * else the signed-in member's, else English); the other name when the field has none in it.
   */
  field_name: z.string(),
});

/**
 * One custom field of the tenant and the member's value (null: none). Every field is listed, with
 * the flags My page needs: only `is_editable` ones may be changed by the member.
 */
export const customFieldValueSchema = fieldNamesSchema.extend({
  custom_field_id: z.number().int(),
  field_type: z.enum(CUSTOM_FIELD_TYPES),
  is_required: z.boolean(),
  is_editable: z.boolean(),
  is_unique: z.boolean(),
  value: z.string().nullable(),
});
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;

/** A custom field's value as sign-up and My page send it. */
export const customFieldInputSchema = z.object({ custom_field_id: idSchema, value: z.string().max(1000) });

/** The signed-in member as the client keeps it (spec §3 user session, without tokens). */
export const memberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  is_admin: z.boolean(),
  language: languageSchema,
  custom_fields: z.array(customFieldValueSchema),
  member_status: memberStatusSchema,
  member_type: z.enum(['organization', 'individual']),
  /** The SSO platform connected for one-click sign-in, if any. */
  sso_platform_id: z.number().int().nullable(),
  /** False for members who only ever signed in through SSO (they cannot disconnect it). */
  has_password: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberPatchBodySchema = z
  .object({
    name: z.string().trim().min(2).max(100).optional(),
    language: languageSchema.optional(),
    /**
     * Values of editable custom fields (the others: 422 `field_not_editable`); the sign-up rules
     * apply: 422 `required_field_missing` / `invalid_field_value`, 409 `value_already_used`.
     * An empty value clears an optional field.
     */
    custom_fields: z.array(customFieldInputSchema).max(100).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to update' });

export const creditCheckSchema = z.object({
  remaining_credit: z.number().nullable(),
  tenant: z.object({ remaining_credit: z.number().nullable() }),
});
export type CreditCheck = z.infer<typeof creditCheckSchema>;

export const getMember = defineEndpoint({
  method: 'GET',
  path: '/members/:id/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  response: memberSchema,
  summary: 'A member (only oneself unless admin)',
  tags: ['members'],
});

export const patchMember = defineEndpoint({
  method: 'PATCH',
  path: '/members/:id/',
  access: 'member',
  errors: {
    403: ['forbidden'],
    404: ['not_found'],
    409: ['value_already_used'],
    422: ['field_not_editable', 'invalid_field_value', 'required_field_missing', 'validation_error'],
  },
  params: idParamsSchema,
  body: memberPatchBodySchema,
  response: memberSchema,
  summary: 'Update own name, language or editable custom fields',
  tags: ['members'],
});

export const getCreditCheck = defineEndpoint({
  method: 'GET',
  path: '/members/:id/credit-check/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  response: creditCheckSchema,
  summary: 'Remaining credit of the member and of the tenant',
  tags: ['members'],
});

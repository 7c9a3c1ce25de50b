import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, languageSchema } from './common';

export const memberStatusSchema = z.enum(['pending', 'approved', 'rejected', 'deactivated', 'invited']);

export const customFieldValueSchema = z.object({ field_name: z.string(), value: z.string().nullable() });

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
  params: idParamsSchema,
  response: memberSchema,
  summary: 'A member (only oneself unless admin)',
  tags: ['members'],
});

export const patchMember = defineEndpoint({
  method: 'PATCH',
  path: '/members/:id/',
  access: 'member',
  params: idParamsSchema,
  body: memberPatchBodySchema,
  response: memberSchema,
  summary: 'Update own name or language',
  tags: ['members'],
});

export const getCreditCheck = defineEndpoint({
  method: 'GET',
  path: '/members/:id/credit-check/',
  access: 'member',
  params: idParamsSchema,
  response: creditCheckSchema,
  summary: 'Remaining credit of the member and of the tenant',
  tags: ['members'],
});

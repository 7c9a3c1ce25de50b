import { z } from 'zod';
import { POLICY_KINDS, POLICY_MARKDOWN_MAX, POLICY_NAME_MAX, URL_MAX, isHttpsUrl } from '../../domain/tenantSettings';
import { idParamsSchema, idSchema, okSchema } from '../common';
import { defineEndpoint } from '../endpoint';
import { policySchema } from '../signup';

/** A policy as the console shows it: the public view plus the document behind a file policy. */
export const adminPolicySchema = policySchema.extend({ file_id: z.number().int().nullable(), file_name: z.string().nullable() });
export type AdminPolicy = z.infer<typeof adminPolicySchema>;

const content = {
  policy_name: z.string().trim().min(1).max(POLICY_NAME_MAX),
  kind: z.enum(POLICY_KINDS),
  is_mandatory: z.boolean(),
  markdown_content: z.string().max(POLICY_MARKDOWN_MAX).nullable(),
  video_url: z.string().trim().max(URL_MAX).refine(isHttpsUrl, { message: 'An https URL' }).nullable(),
  /** An id from `POST /admin/policies/files/`. */
  file_id: idSchema.nullable(),
};

/**
 * Only the content of the policy's kind is kept (markdown text, a video URL or a document), and it
 * is required: the server answers 422 `validation_error` when it is missing.
 */
export const createPolicyBodySchema = z.object({
  ...content,
  is_mandatory: content.is_mandatory.default(true),
  markdown_content: content.markdown_content.optional(),
  video_url: content.video_url.optional(),
  file_id: content.file_id.optional(),
});

export const updatePolicyBodySchema = z
  .object(content)
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' });

export const policyFileSchema = z.object({ file_id: z.number().int(), name: z.string(), size: z.number().int(), type: z.string() });
export type PolicyFile = z.infer<typeof policyFileSchema>;

export const listAdminPolicies = defineEndpoint({
  method: 'GET',
  path: '/admin/policies/',
  access: 'admin',
  errors: {},
  response: z.object({ items: z.array(adminPolicySchema) }),
  summary: 'Every policy of the tenant, oldest first',
  tags: ['admin'],
});

export const createPolicy = defineEndpoint({
  method: 'POST',
  path: '/admin/policies/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['validation_error'] },
  body: createPolicyBodySchema,
  response: adminPolicySchema,
  summary: 'Add a policy (markdown text, an https video URL, or an uploaded document); 422 when its content is missing',
  tags: ['admin'],
});

export const updatePolicy = defineEndpoint({
  method: 'PATCH',
  path: '/admin/policies/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['validation_error'] },
  params: idParamsSchema,
  body: updatePolicyBodySchema,
  response: adminPolicySchema,
  summary: 'Change a policy (a replaced document is deleted)',
  tags: ['admin'],
});

export const deletePolicy = defineEndpoint({
  method: 'DELETE',
  path: '/admin/policies/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a policy, its document and the agreements to it',
  tags: ['admin'],
});

export const uploadPolicyFile = defineEndpoint({
  method: 'POST',
  path: '/admin/policies/files/',
  access: 'admin',
  errors: { 400: ['file_corrupted'], 413: ['file_too_large'], 415: ['unsupported_file_type'], 422: ['validation_error'] },
  response: policyFileSchema,
  summary:
    'Upload a policy document (multipart, one `files` part like `POST /files/`: PDF, DOCX, HWPX or text); 413 too large, 415 other types. Kept for a day unless a policy takes it',
  tags: ['admin'],
});

import { z } from 'zod';
import { defineEndpoint, type ErrorDeclaration } from './endpoint';
import { ID_MAX, idParamsSchema, idTextSchema, okSchema } from './common';
import { hashParamsSchema } from './sessions';

export const PARSE_STATUSES = ['parsing', 'parsed', 'failed'] as const;

/** An uploaded file as its owner sees it (spec §3 file display: name, size, percentage parsed). */
export const chatFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  /** The type read from the content (e.g. image/png). */
  type: z.string(),
  /** Where the owner downloads it (authenticated). */
  url: z.string(),
  access_level: z.enum(['public', 'private']),
  should_expire: z.boolean(),
  /** Text extraction: images are parsed at once (they reach the model as pictures). */
  status: z.enum(PARSE_STATUSES),
  /** Share of the document whose text was extracted; below 100 when a large file was parsed in part. */
  parsed_percentage: z.number().int().min(0).max(100),
  created_at: z.string(),
});
export type ChatFile = z.infer<typeof chatFileSchema>;

const formBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** A comma-separated id list as a form field or query value: `1,2,3`. */
const idListText = z
  .string()
  .max(2000)
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'comma-separated ids')
  .transform((v) => [...new Set(v.split(',').map((id) => Number(id.trim())))])
  .pipe(z.array(z.number().int().positive().max(ID_MAX)).max(50));

/**
 * The text fields of `POST /files/` (multipart; spec §3 file upload options, §9 defaults), sent
 * beside one or more `files` parts. Ids arrive as text.
 */
export const uploadOptionsSchema = z.object({
  should_expire: formBoolean.default(true),
  access_level: z.enum(['public', 'private']).default('public'),
  attached_file_ids: idListText.optional(),
  chatbot_id: idTextSchema.optional(),
  session_id: idTextSchema.optional(),
});
export type UploadOptions = z.input<typeof uploadOptionsSchema>;

/** The multipart field carrying the files. */
export const UPLOAD_FIELD = 'files';

/** The refusals of an upload of files, to a chat or to a chatbot's knowledge. */
export const UPLOAD_ERRORS = {
  400: ['file_corrupted'],
  403: ['forbidden'],
  404: ['not_found'],
  413: ['file_too_large', 'too_many_pages'],
  415: ['unsupported_file_type'],
  422: ['validation_error'],
} as const satisfies ErrorDeclaration;

export const uploadFiles = defineEndpoint({
  access: 'member',
  errors: UPLOAD_ERRORS,
  method: 'POST',
  path: '/files/',
  response: z.object({ items: z.array(chatFileSchema) }),
  summary:
    'Upload files (multipart/form-data: one or more `files` parts plus the fields of uploadOptionsSchema). 400 corrupted, 403 chatbot or session not yours, 413 size or page limit, 415 format (checked by content), 422 options, 429 upload rate limit',
  tags: ['files'],
});

export const getFile = defineEndpoint({
  access: 'member',
  errors: { 404: ['not_found'] },
  method: 'GET',
  path: '/files/:id/',
  params: idParamsSchema,
  response: z.any().describe('the file’s bytes'),
  summary: 'Download a file you uploaded (anyone else’s answers 404)',
  tags: ['files'],
});

export const getPublicFile = defineEndpoint({
  access: 'public',
  errors: { 404: ['not_found'] },
  method: 'GET',
  path: '/public/chatbots/:hash/files/:id/',
  params: z.object({ hash: z.string().min(1).max(64), id: idTextSchema }),
  response: z.any().describe('the file’s bytes'),
  summary: 'Download a public chatbot’s document or any chatbot’s profile picture, without signing in (anything else 404)',
  tags: ['files'],
});

/**
 * A file of a shared session, keyed by the session's hash (the link its visitor holds), so the
 * path itself limits it to that session. The public history lists its files at this path.
 */
export const getSharedSessionFile = defineEndpoint({
  access: 'public',
  errors: { 404: ['not_found'] },
  method: 'GET',
  path: '/public/sessions/:hash/files/:id/',
  params: hashParamsSchema.extend({ id: idTextSchema }),
  response: z.any().describe('the file’s bytes'),
  summary:
    'Download a file attached to a message of a shared session (an upload or a generated image), without signing in. 400 malformed id; 404 for anything else: the session not shared (or no longer), another session’s or tenant’s file, a private file',
  tags: ['files'],
});

export const deleteFile = defineEndpoint({
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'], 422: ['file_in_use'] },
  method: 'DELETE',
  path: '/files/:id/',
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a file you uploaded: 403 someone else’s, 422 already sent in a message',
  tags: ['files'],
});

export const fileProgressSchema = z.object({
  id: z.number().int(),
  status: z.enum(PARSE_STATUSES),
  parsed_percentage: z.number().int().min(0).max(100),
});
export type FileProgress = z.infer<typeof fileProgressSchema>;

export const getFileProgress = defineEndpoint({
  access: 'member',
  errors: {},
  method: 'GET',
  path: '/files/progress',
  query: z.object({ file_ids: idListText }),
  response: z.object({ items: z.array(fileProgressSchema) }),
  summary: 'How far parsing of your files has come (files not yours or unknown are left out)',
  tags: ['files'],
});

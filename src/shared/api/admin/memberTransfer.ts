import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema } from '../common';
import { UPLOAD_FIELD } from '../files';
import { taskSchema } from '../tasks';
import { MEMBER_FILE_FORMATS, MEMBER_UPLOAD_OUTCOMES, MEMBER_UPLOAD_ROW_ERRORS } from '../../domain/memberTransfer';

const formatQuerySchema = z.object({ format: z.enum(MEMBER_FILE_FORMATS).default('csv') });

/** What a completed export task holds (`GET /tasks/{id}/` result). */
export const memberExportResultSchema = z.object({
  format: z.enum(MEMBER_FILE_FORMATS),
  file_name: z.string(),
  rows: z.number().int(),
  /** The API path that downloads the file; null when the file is gone (spec §8 "missing file url"). */
  download_path: z.string().nullable(),
});
export type MemberExportResult = z.infer<typeof memberExportResultSchema>;

export const startMemberExport = defineEndpoint({
  method: 'GET',
  path: '/admin/members/export-task/',
  access: 'admin',
  errors: {},
  query: formatQuerySchema,
  response: taskSchema,
  summary:
    'Start exporting the members (CSV or XLSX) as a background task, or return the export this admin already has running; poll GET /tasks/{id}/ for progress',
  tags: ['admin'],
});

export const downloadMemberExport = defineEndpoint({
  method: 'GET',
  path: '/admin/members/export-task/:id/download/',
  access: 'admin',
  errors: { 404: ['export_file_missing', 'not_found'] },
  params: idParamsSchema,
  response: z.any().describe('the export file'),
  summary: 'Download a finished export you started (404 for anyone else’s or when the file is missing)',
  tags: ['admin'],
});

export const memberUploadFailedRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  row: z.number().int(),
  email: z.string(),
  reason: z.enum(MEMBER_UPLOAD_ROW_ERRORS),
  /** The column or custom field the reason is about, when it is about one. */
  field: z.string().nullable(),
});
export type MemberUploadFailedRow = z.infer<typeof memberUploadFailedRowSchema>;

/** What a completed upload task holds (`GET /tasks/{id}/` result). */
export const memberUploadResultSchema = z.object({
  outcome: z.enum(MEMBER_UPLOAD_OUTCOMES),
  total: z.number().int(),
  invited: z.number().int(),
  failed: z.array(memberUploadFailedRowSchema),
});
export type MemberUploadResult = z.infer<typeof memberUploadResultSchema>;

/** The multipart part that carries the file (the same field as every other upload). */
export const MEMBER_UPLOAD_FIELD = UPLOAD_FIELD;

export const uploadMembers = defineEndpoint({
  method: 'POST',
  path: '/admin/members/bulk-upload/',
  access: 'admin',
  errors: {
    400: ['file_corrupted'],
    402: ['invitation_limit_reached'],
    413: ['file_too_large'],
    415: ['unsupported_file_type'],
    422: ['duplicate_column', 'empty_file', 'excluded_column', 'missing_column', 'too_many_rows', 'unknown_column', 'validation_error'],
  },
  response: taskSchema,
  summary:
    'Upload members (multipart/form-data, one `file` part: CSV or XLSX laid out like the template); they are invited in batches by a background task. 400 unreadable, 413 too large, 415 format, 422 missing or excluded columns, too many rows',
  tags: ['admin'],
});

export const downloadMemberUploadTemplate = defineEndpoint({
  method: 'GET',
  path: '/admin/members/bulk-upload/template/',
  access: 'admin',
  errors: {},
  query: formatQuerySchema,
  response: z.any().describe('the template file'),
  summary: "An empty upload file with the tenant's columns (fixed ones and the sign-up custom fields)",
  tags: ['admin'],
});

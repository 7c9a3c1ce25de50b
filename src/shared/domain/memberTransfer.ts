/**
 * Member export and bulk upload (spec §4 "Bulk upload", "Member export", §5 upload rules, §8).
 * The spec does not show batch sizes, limits or the file layout; these are the choices
 * (docs/decisions/0063-member-export-and-bulk-upload.md).
 */

export const MEMBER_FILE_FORMATS = ['csv', 'xlsx'] as const;
export type MemberFileFormat = (typeof MEMBER_FILE_FORMATS)[number];

/** Members read and written per step of an export (one query each, then one progress update). */
export const MEMBER_EXPORT_BATCH_SIZE = 1000;
/** Rows of an upload written per transaction: a failed batch leaves none of its rows. */
export const MEMBER_UPLOAD_BATCH_SIZE = 100;
export const MEMBER_UPLOAD_MAX_ROWS = 10_000;
export const MEMBER_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Upload names are 1 to 100 characters (spec §5, §9; sign-up asks for 2). */
export const UPLOAD_NAME_MIN = 1;
export const UPLOAD_NAME_MAX = 100;
export const SSO_ID_MAX = 255;

/** The fixed columns of an upload file; each sign-up custom field adds a column named after it. */
export const UPLOAD_COLUMNS = { name: 'name', email: 'email', group: 'default_member_group', ssoId: 'sso_id' } as const;

/**
 * Why a row was not invited: spec §8's row-level errors, then the §5 validation reasons.
 * `field` on the row names the custom field or column concerned.
 */
export const MEMBER_UPLOAD_ROW_ERRORS = [
  'already_exists',
  'already_invited',
  'already_requested',
  'invitation_email_failed',
  'unknown_error',
  'invalid_name',
  'invalid_email',
  'invalid_member_group',
  'missing_sso_id',
  'invalid_sso_id',
  'missing_required_field',
  'invalid_number',
  'duplicate_unique_value',
] as const;
export type MemberUploadRowError = (typeof MEMBER_UPLOAD_ROW_ERRORS)[number];

/** Spec §4: success (every row), warning (some rows failed), error (none went through). */
export const MEMBER_UPLOAD_OUTCOMES = ['success', 'warning', 'error'] as const;

/** Why a finished export task has no file (spec §8 "Export: timeout, failed, missing file url"). */
export const MEMBER_EXPORT_FAILURES = ['timed_out', 'failed'] as const;

/** The task kinds, as `GET /tasks/{id}/` reports them. */
export const MEMBER_EXPORT_TASK = 'member-export';
export const MEMBER_UPLOAD_TASK = 'member-upload';

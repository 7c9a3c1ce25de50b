/**
 * Limits of the tenant settings an admin edits in the console (the spec does not show them;
 * docs/decisions/0045-tenant-settings.md). Shared by the forms and the server.
 */
import type { FileKind } from './files';

export const TENANT_NAME_MAX = 100;
export const CUSTOM_FIELD_NAME_MAX = 100;
export const CUSTOM_FIELD_TYPES = ['text', 'number'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
/** Fields and policies a tenant may have: each is shown on the sign-up form, which must stay usable. */
export const CUSTOM_FIELDS_MAX = 50;
export const POLICIES_MAX = 20;
/** Task modes: each is one entry of the composer's chooser, whose instructions join every send in it. */
export const TASK_MODES_MAX = 20;
export const TASK_MODE_NAME_MAX = 100;
export const TASK_MODE_INSTRUCTIONS_MAX = 4000;
export const POLICY_NAME_MAX = 200;
export const POLICY_KINDS = ['markdown', 'video', 'file'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];
export const POLICY_MARKDOWN_MAX = 100_000;
export const URL_MAX = 2000;

/** The logo: a picture the sign-in page shows before anyone is signed in. */
export const LOGO_KINDS: readonly FileKind[] = ['png', 'jpeg', 'gif', 'webp'];
export const LOGO_MAX_BYTES = 1024 * 1024;
/** A file policy's document: something a browser opens or downloads as it is. */
export const POLICY_FILE_KINDS: readonly FileKind[] = ['pdf', 'docx', 'hwpx', 'text'];
export const POLICY_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** Video policies are played in the sign-up page: only https sources (no mixed content, no javascript:). */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The manual link opens in a browser: http or https only. */
export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

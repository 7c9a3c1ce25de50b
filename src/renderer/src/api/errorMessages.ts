import * as authApi from '../../../shared/api/auth';
import { isApiError, type ApiError } from '../../../shared/api/apiError';
import type { Endpoint } from '../../../shared/api/endpoint';

/**
 * One row of the error catalogue (spec §8): which failed call it is about and the full i18n key of
 * its message. `endpoint` limits it to that endpoint's failures; without `status` it is the default
 * for everything else (non-API failures included); `code` and `when` narrow a status further.
 */
export interface ErrorMessageRow {
  endpoint?: Endpoint;
  status?: number;
  code?: string;
  when?: (error: ApiError) => boolean;
  key: string;
}

export const isIndividual = (error: ApiError) => (error.body?.details as { member_type?: string } | undefined)?.member_type === 'individual';

/**
 * Spec §8 as data. Rows naming an endpoint come before the generic ones for that endpoint's
 * failures; within a group the first matching row wins. Only the first screen's rows (sign-in)
 * and the generic ones are here; every other endpoint's rows are in `errorCatalog.ts`, which
 * arrives with the first lazy route (router.tsx), so the contract of every screen does not weigh
 * on sign-in.
 */
const FIRST_SCREEN_ROWS: ErrorMessageRow[] = [
  // Sign-in. Individuals have no administrator to approve them: they are pointed to customer support.
  { endpoint: authApi.signIn, status: 0, key: 'auth:sign_in_errors.network' },
  { endpoint: authApi.signIn, status: 400, key: 'auth:sign_in_errors.400' },
  { endpoint: authApi.signIn, status: 401, key: 'auth:sign_in_errors.401' },
  { endpoint: authApi.signIn, status: 422, key: 'auth:sign_in_errors.401' },
  { endpoint: authApi.signIn, status: 403, code: 'sso_only', key: 'auth:sign_in_errors.sso_only' },
  { endpoint: authApi.signIn, status: 403, code: 'account_deactivated', key: 'auth:auth_refresh_403' },
  { endpoint: authApi.signIn, status: 403, when: isIndividual, key: 'auth:sign_in_errors.403_individual' },
  { endpoint: authApi.signIn, status: 403, key: 'auth:sign_in_errors.403' },
  { endpoint: authApi.signIn, status: 423, key: 'auth:sign_in_errors.423' },
  { endpoint: authApi.signIn, status: 429, key: 'auth:sign_in_errors.429' },
  { endpoint: authApi.signIn, key: 'auth:sign_in_errors.500' },

];

const GENERIC_ROWS: readonly ErrorMessageRow[] = [
  // Generic, by HTTP status.
  { status: 0, key: 'errors:network' },
  { status: 400, key: 'errors:status_400' },
  { status: 401, key: 'errors:status_401' },
  { status: 403, key: 'errors:status_403' },
  { status: 404, key: 'errors:status_404' },
  { status: 422, key: 'errors:status_422' },
  { status: 424, key: 'errors:status_422' },
  { status: 428, key: 'errors:status_428' },
  { status: 429, key: 'errors:status_429' },
  { status: 500, key: 'errors:status_500' },
  { key: 'errors:unknown' },
];

const endpointRows: ErrorMessageRow[] = [...FIRST_SCREEN_ROWS];

/** Adds the rows of further endpoints (errorCatalog.ts); a row for an endpoint already listed goes after its rows. */
export function addErrorMessages(rows: readonly ErrorMessageRow[]): void {
  endpointRows.push(...rows.filter((row) => !endpointRows.includes(row)));
}

/** Every row, in the order they are tried for an endpoint, then the generic ones (for tests). */
export const errorMessageRows = (): readonly ErrorMessageRow[] => [...endpointRows, ...GENERIC_ROWS];

function matches(row: ErrorMessageRow, error: unknown): boolean {
  if (row.status === undefined) return true;
  if (!isApiError(error) || error.status !== row.status) return false;
  return (row.code === undefined || error.code === row.code) && (row.when?.(error) ?? true);
}

/**
 * The message key of a failed call: the screen's own `overrides` first, then the rows of its
 * `endpoint`, then the generic rows.
 */
export function errorMessageKey(error: unknown, endpoint?: Endpoint, overrides: readonly ErrorMessageRow[] = []): string {
  const candidates = [...overrides, ...(endpoint ? endpointRows.filter((row) => row.endpoint === endpoint) : []), ...GENERIC_ROWS];
  return candidates.find((row) => matches(row, error))?.key ?? 'errors:unknown';
}

/** What a message may interpolate: `{{time}}`, the local time a 429 says to try again at. */
export type ErrorMessageValues = { time?: string; field_name?: string; value?: string; count?: number };

/** The values a message interpolates: the wait of a 429, the field (and value) a refusal names. */
export function errorMessageValues(error: unknown, language: string): ErrorMessageValues {
  const details = (isApiError(error) ? error.body?.details : undefined) as { retry_after_seconds?: number; field_name?: unknown; value?: unknown; min_length?: unknown } | undefined;
  const values: ErrorMessageValues = {};
  if (typeof details?.field_name === 'string') values.field_name = details.field_name;
  if (typeof details?.value === 'string') values.value = details.value;
  // A new password's rule names the tenant's minimum length.
  if (typeof details?.min_length === 'number') values.count = details.min_length;
  const seconds = details?.retry_after_seconds;
  if (seconds) values.time = new Date(Date.now() + seconds * 1000).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
  return values;
}

/** The custom field a refusal of a value is about (the server names it by id as well as by name). */
export function errorCustomFieldId(error: unknown): number | undefined {
  const details = (isApiError(error) ? error.body?.details : undefined) as { custom_field_id?: unknown } | undefined;
  return typeof details?.custom_field_id === 'number' ? details.custom_field_id : undefined;
}

/** The generic message key of any thrown value, for calls spec §8 names no message of their own. */
export const errorKeyOf = (error: unknown): string => errorMessageKey(error);

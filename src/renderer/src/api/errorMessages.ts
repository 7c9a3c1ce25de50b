import * as authApi from '../../../shared/api/auth';
import { isApiError, type ApiError } from '../../../shared/api/apiError';
import { type DeclaredErrorCode, type Endpoint, declaredErrors } from '../../../shared/api/endpoint';
import i18next from 'i18next';
import { type MessageKey, messageText } from '../i18n/keys';

/** A message key, or keys tried in order under a condition on the failure, then an unconditional one. */
export type ErrorMessage = MessageKey | readonly [...{ when: (error: ApiError) => boolean; key: MessageKey }[], MessageKey];

/** A declared code whose message is, on purpose, the endpoint's message for its status (else the generic one). */
export const BY_STATUS: unique symbol = Symbol('by status');

/**
 * The messages of one endpoint's failures (spec §8): `codes` has one entry for each code the
 * endpoint declares (shared/api/endpoint.ts) and no other, so the type system catches a code
 * without a message and a message for a code the endpoint does not answer; `statuses` answers what
 * no code entry does (0: a network failure; the codes by rule; a body that is not ours), and
 * `otherwise` any other failure, non-API ones included. What an endpoint leaves out, the generic
 * rows answer.
 */
export type EndpointErrorMessages<E extends Endpoint> = {
  codes: { readonly [C in DeclaredErrorCode<E>]: ErrorMessage | typeof BY_STATUS };
  statuses?: { readonly [status: number]: ErrorMessage };
  otherwise?: MessageKey;
};

interface StoredErrorMessages {
  endpoint: Endpoint;
  codes: Readonly<Record<string, ErrorMessage | typeof BY_STATUS>>;
  statuses?: { readonly [status: number]: ErrorMessage };
  otherwise?: MessageKey;
}

/** One endpoint's entry of the message table (errorCatalog.ts), typed by its declared codes. */
export const errorMessagesOf = <E extends Endpoint>(endpoint: E, messages: EndpointErrorMessages<E>): StoredErrorMessages => ({ endpoint, ...messages });

/** A screen's own message for a failure of its call, tried before the table (`when` narrows a status further). */
export interface ErrorMessageOverride {
  endpoint?: Endpoint;
  status?: number;
  code?: string;
  when?: (error: ApiError) => boolean;
  key: MessageKey;
}

export const isIndividual = (error: ApiError) => (error.body?.details as { member_type?: string } | undefined)?.member_type === 'individual';

/**
 * Spec §8 as data. Only the first screen's messages (sign-in) are here; every other endpoint's are
 * in `errorCatalog.ts`, which arrives with the first lazy route (router.tsx), so the contract of
 * every screen does not weigh on sign-in.
 */
const FIRST_SCREEN_MESSAGES = [
  // Individuals have no administrator to approve them: they are pointed to customer support.
  errorMessagesOf(authApi.signIn, {
    codes: {
      validation_error: 'auth:sign_in_errors.401',
      invalid_credentials: BY_STATUS,
      sso_only: 'auth:sign_in_errors.sso_only',
      account_deactivated: 'auth:auth_refresh_403',
      not_approved: BY_STATUS,
      not_eligible: BY_STATUS,
    },
    statuses: {
      0: 'auth:sign_in_errors.network',
      400: 'auth:sign_in_errors.400',
      401: 'auth:sign_in_errors.401',
      422: 'auth:sign_in_errors.401',
      403: [{ when: isIndividual, key: 'auth:sign_in_errors.403_individual' }, 'auth:sign_in_errors.403'],
      423: 'auth:sign_in_errors.423',
      429: 'auth:sign_in_errors.429',
    },
    otherwise: 'auth:sign_in_errors.500',
  }),
];

const GENERIC_ROWS: readonly ErrorMessageOverride[] = [
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

const table = new Map<Endpoint, StoredErrorMessages>();

/** Adds the messages of further endpoints (errorCatalog.ts). */
export function addErrorMessages(entries: readonly StoredErrorMessages[]): void {
  for (const entry of entries) table.set(entry.endpoint, entry);
}
addErrorMessages(FIRST_SCREEN_MESSAGES);

/** The table's entry of an endpoint (tests). */
export const errorMessagesFor = (endpoint: Endpoint): StoredErrorMessages | undefined => table.get(endpoint);

function matches(row: ErrorMessageOverride, error: unknown): boolean {
  if (row.status === undefined) return true;
  if (!isApiError(error) || error.status !== row.status) return false;
  return (row.code === undefined || error.code === row.code) && (row.when?.(error) ?? true);
}

function keyOf(message: ErrorMessage, error: ApiError): MessageKey {
  if (typeof message === 'string') return message;
  const conditional = message.slice(0, -1) as { when: (error: ApiError) => boolean; key: MessageKey }[];
  return conditional.find((option) => option.when(error))?.key ?? (message[message.length - 1] as MessageKey);
}

/** The endpoint's own message: its declared code's, else its status's, else its `otherwise`. */
function endpointMessageKey(entry: StoredErrorMessages, error: unknown): MessageKey | undefined {
  if (isApiError(error)) {
    const code = error.code;
    const byCode =
      code !== undefined &&
      Object.hasOwn(entry.codes, code) &&
      declaredErrors(entry.endpoint).some(([status, declared]) => status === error.status && declared === code)
        ? entry.codes[code]
        : undefined;
    if (byCode !== undefined && byCode !== BY_STATUS) return keyOf(byCode, error);
    const byStatus = entry.statuses?.[error.status];
    if (byStatus !== undefined) return keyOf(byStatus, error);
  }
  return entry.otherwise;
}

/**
 * The message key of a failed call: the screen's own `overrides` first, then the messages of its
 * `endpoint`, then the generic rows.
 */
export function errorMessageKey(error: unknown, endpoint?: Endpoint, overrides: readonly ErrorMessageOverride[] = []): MessageKey {
  const override = overrides.find((row) => matches(row, error));
  if (override) return override.key;
  const entry = endpoint && table.get(endpoint);
  const own = entry && endpointMessageKey(entry, error);
  return own ?? GENERIC_ROWS.find((row) => matches(row, error))?.key ?? 'errors:unknown';
}

/** What a message may interpolate: `{{time}}`, the local time a 429 says to try again at. */
export type ErrorMessageValues = { time?: string; field_name?: string; value?: string; count?: number };

/** The values a message interpolates: the wait of a 429, the field (and value) a refusal names. */
export function errorMessageValues(error: unknown, language: string): ErrorMessageValues {
  const details = (isApiError(error) ? error.body?.details : undefined) as
    { retry_after_seconds?: number; field_name?: unknown; value?: unknown; min_length?: unknown } | undefined;
  const values: ErrorMessageValues = {};
  if (typeof details?.field_name === 'string') values.field_name = details.field_name;
  if (typeof details?.value === 'string') values.value = details.value;
  // A new password's rule names the tenant's minimum length.
  if (typeof details?.min_length === 'number') values.count = details.min_length;
  const seconds = details?.retry_after_seconds;
  if (seconds) values.time = new Date(Date.now() + seconds * 1000).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
  return values;
}

/** A failed call's message in the interface language, with what it interpolates: toasts and load errors. */
export const errorText = (error: unknown, endpoint?: Endpoint, overrides: readonly ErrorMessageOverride[] = []): string =>
  messageText(errorMessageKey(error, endpoint, overrides), errorMessageValues(error, i18next.language));

/** The custom field a refusal of a value is about (the server names it by id as well as by name). */
export function errorCustomFieldId(error: unknown): number | undefined {
  const details = (isApiError(error) ? error.body?.details : undefined) as { custom_field_id?: unknown } | undefined;
  return typeof details?.custom_field_id === 'number' ? details.custom_field_id : undefined;
}

/** The generic message key of any thrown value, for calls spec §8 names no message of their own. */
export const errorKeyOf = (error: unknown): MessageKey => errorMessageKey(error);

/**
 * Machine-readable error codes of the `{code, message}` body. The client maps them (and the HTTP
 * status) to translated messages of spec §8; the server never puts internals in `message`.
 */
export const ERROR_CODES = [
  'bad_request',
  'validation_error',
  'unauthorized',
  'invalid_credentials',
  /** Change password: the current password is wrong. */
  'wrong_password',
  /** Reset password: the link is unknown, used or expired. */
  'reset_link_invalid',
  'reset_link_expired',
  /** A mail the request depends on could not be sent (424). */
  'mail_failed',
  'session_expired',
  'account_deactivated',
  'not_approved',
  'not_eligible',
  'forbidden',
  'not_found',
  'conflict',
  'credits_depleted',
  /** A visitor's chat with a public chatbot: the chatbot creator's credits are used up. */
  'model_not_allowed',
  'input_too_long',
  'message_empty',
  'restricted_term',
  'pii_blocked',
  'no_history',
  'rate_limited',
  'upstream_failed',
  'web_search_unavailable',
  'web_search_failed',
  'file_corrupted',
  'file_too_large',
  'too_many_pages',
  'unsupported_file_type',
  'file_in_use',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

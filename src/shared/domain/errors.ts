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
  /** The unlimited model stays usable by every group (spec §5): its switch cannot be turned off. */
  'model_locked',
  /** The default group's credit info cannot be changed (spec §5), nor the group deleted (422). */
  'default_group_locked',
  /** Rejecting a request (publish, member) needs a reason for the requester (spec §5). */
  'reason_required',
  'input_too_long',
  'message_empty',
  'restricted_term',
  'pii_blocked',
  'no_history',
  /** A chat import names a chatbot the member may not chat with (or none of this organisation). */
  'chatbot_not_usable',
  'rate_limited',
  'upstream_failed',
  /** A chat answer that could not be saved (stream error frame; 503 on the OpenAI-compatible API). */
  'answer_not_saved',
  /** Feedback on an answer that is still being written (409): it is rated once it is finished. */
  'answer_not_finished',
  /** A chat answer cut off by the server's shutdown, saved as interrupted (stream error frame; 503 on the OpenAI-compatible API). */
  'server_shutting_down',
  'web_search_unavailable',
  'web_search_failed',
  'file_corrupted',
  'file_too_large',
  'too_many_pages',
  'unsupported_file_type',
  'file_in_use',
  'internal_error',
  // Sign-up and its verification code (spec §8 "Sign-up", "Send verification code").
  'signup_closed',
  'already_registered',
  'mail_failed',
  'sms_failed',
  'invalid_phone',
  'code_cooldown',
  'invalid_code',
  'code_expired',
  'member_limit_reached',
  'invalid_email',
  'invalid_password',
  /** A new password that is one of the most common ones (422; sign-up, reset, change, invitation). */
  'common_password',
  'invalid_name',
  'invalid_member_type',
  'invalid_member_group',
  'invalid_signup_field',
  'invalid_sso_user_type',
  'required_field_missing',
  'invalid_field_value',
  'value_already_used',
  'policy_agreement_required',
  // Invitations (spec §5, §8).
  /** Unknown, deleted or already accepted. */
  'invitation_not_found',
  /** The temporary password of the invitation mail is wrong. */
  'wrong_temporary_password',
  /** Bulk invite beyond the plan's invitation limit (402). */
  'invitation_limit_reached',
  // SSO (spec §8 "Other"; docs/ARCHITECTURE.md "SSO").
  /** The platform refused the user ID and password, or the authorization code. */
  'sso_rejected',
  /** The platform could not be reached or answered nonsense (424). */
  'sso_unavailable',
  /** The verified identity is older than SSO_IDENTITY_TTL_MINUTES, or not of this platform. */
  'sso_identity_expired',
  /** No account is connected to this identity: sign up, or sign in and connect it on My page. */
  'sso_account_not_found',
  /** The identity is connected to another account already. */
  'sso_account_in_use',
  /** Disconnecting would leave an account without a password no way to sign in. */
  'sso_password_required',
  /** The tenant takes members through SSO only: password sign-in is for administrators. */
  'sso_only',
  /**
   * An admin saved an address the server may not connect to for a tenant (loopback, private,
   * link-local, reserved; unless the operator's OUTBOUND_ALLOW lets it): 422.
   */
  'destination_refused',
  // Tenant settings (admin console) and My page custom fields.
  /** Another custom field has that Korean or English name (any letter case; details `field`: which of the two). */
  'field_name_taken',
  /** A custom field would have neither a Korean nor an English name (422). */
  'field_name_required',
  /** Another task mode of the tenant has that Korean or English name (409; details `field`: which of the two). */
  'task_mode_name_taken',
  /** A task mode would have neither a Korean nor an English name (422). */
  'task_mode_name_required',
  /** A field cannot become unique while members share a value of it. */
  'values_not_unique',
  /** A field cannot become a number field while a member's value is not a number. */
  'values_not_numbers',
  /** My page: the admin made this custom field read-only for members. */
  'field_not_editable',
  /** Billing (docs/ARCHITECTURE.md "Plans, membership and payments"): an organisation member's plan is the administrator's. */
  'billing_admin_only',
  'card_declined',
  'invalid_payment_result',
  'payment_provider_unavailable',
  'payment_method_required',
  'already_subscribed',
  /** Another charge of the same payer is pending (409). */
  'payment_in_progress',
  'no_membership',
  'already_cancelled',
  'not_cancelled',
  /** A payment provider's webhook whose signature does not check out. */
  'invalid_signature',
  // Developers: the OpenAI-compatible API (docs/ARCHITECTURE.md "Developers").
  /** Unknown, revoked or expired API key, or its owner deactivated (401). */
  'invalid_api_key',
  /** PATCH of an expired key's expiry: an expired key stays expired (422). */
  'api_key_expired',
  // Member groups (admin console, spec §5, §8).
  /** Another group of the tenant has this Korean or English name (409 "name in use"). */
  'group_name_taken',
  // Announcements (spec §5: deleting with a missing id gives announcement_update_failed).
  /** No announcement of the tenant has this id (404). */
  'announcement_update_failed',
  /** A group would have neither a Korean nor an English name (422). */
  'group_name_required',
  // Admin members (issue 11).
  /** An admin cannot remove their own admin rights nor delete their own account (422). */
  'own_account',
  // Member export and bulk upload (docs/ARCHITECTURE.md "Member export and bulk upload").
  /** The finished export's file is no longer in the store (spec §8 "missing file url"). */
  'export_file_missing',
  /** The upload lacks a fixed column or a required sign-up custom-field column. */
  'missing_column',
  /** The upload has a column of a custom field that is not a sign-up field (spec §5). */
  'excluded_column',
  /** The upload has a column the template does not have, or one twice. */
  'unknown_column',
  'duplicate_column',
  /** The upload has no member rows, or more than MEMBER_UPLOAD_MAX_ROWS. */
  'empty_file',
  'too_many_rows',
  /** A visitor's public chat names files: visitors have no upload path (403). */
  'visitor_files_not_allowed',
  // Prompt library (issue 23).
  /** Another prompt of the same scope (the tenant's, or the member's own) has this name, letter case ignored (409). */
  'prompt_name_taken',
  /** The tenant or the member has as many prompts as allowed (422). */
  'prompt_limit_reached',
  // MCP servers (issue 24): a connection that failed (424; the server keeps it as its last error).
  /** Another MCP server of the tenant has this name (409). */
  'mcp_server_name_taken',
  /** Nothing answered at the address (refused, not found, reset, or an HTTP error status). */
  'mcp_unreachable',
  /** No answer within MCP_CONNECT_TIMEOUT_SECONDS. */
  'mcp_timeout',
  /** The MCP server refused the secret (401 or 403). */
  'mcp_unauthorized',
  /** What answered does not speak MCP over streamable HTTP, or listed unusable tools. */
  'mcp_protocol_error',
  /** A chatbot's editor picked a tool they may not give it: not one their groups may use (an admin: not enabled, or gone) (403). */
  'tool_not_allowed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

import { DEPLETION_KINDS, type DepletionKind } from '../../../shared/domain/credits';
import {
  adminAnnouncementsApi,
  adminChatbotsApi,
  adminCreditsApi,
  adminCustomFieldsApi,
  adminDashboardsApi,
  adminInvitationsApi,
  adminLlmModelsApi,
  adminMemberGroupsApi,
  adminMemberRequestsApi,
  adminMemberTransferApi,
  adminPromptsApi,
  adminMembersApi,
  adminPoliciesApi,
  adminSecurityApi,
  adminSignupSettingsApi,
  adminSsoPlatformsApi,
  adminMcpServersApi,
  adminSsoWhitelistApi,
  adminTaskModesApi,
  adminTenantSettingsApi,
  apiKeysApi,
  authApi,
  billingApi,
  chatApi,
  chatbotsApi,
  creditsApi,
  feedbackApi,
  filesApi,
  groupRequestsApi,
  invitationsApi,
  membersApi,
  openAiApi,
  passwordsApi,
  promptsApi,
  publicSessionsApi,
  sessionsApi,
  sessionTransferApi,
  signupApi,
  ssoApi,
  taskModesApi,
  tasksApi,
  tenantMembershipApi,
  type ApiError,
} from '../../../shared/api';
import { BY_STATUS, addErrorMessages, errorMessagesOf, isIndividual } from './errorMessages';

/** A failed connection to an MCP server, as the console's list says it (mcp:connection_errors). */
const MCP_CONNECTION_MESSAGES = {
  destination_refused: 'mcp:connection_errors.destination_refused',
  mcp_unreachable: 'mcp:connection_errors.mcp_unreachable',
  mcp_timeout: 'mcp:connection_errors.mcp_timeout',
  mcp_unauthorized: 'mcp:connection_errors.mcp_unauthorized',
  mcp_protocol_error: 'mcp:connection_errors.mcp_protocol_error',
} as const;

/** A new password shorter than the tenant's minimum (the details name it; `errorMessageValues` passes it as `count`). */
const tooShort = (error: ApiError) => (error.body?.details as { reason?: string } | undefined)?.reason === 'validation.password_too_short';
const depletionIs = (kind: DepletionKind) => (error: ApiError) => (error.body?.details as { depletion?: string } | undefined)?.depletion === kind;

/** The member's own prompts and the tenant's answer alike. */
const PROMPT_WRITES = [
  { create: promptsApi.createPrompt, patch: promptsApi.patchPrompt, remove: promptsApi.deletePrompt },
  { create: adminPromptsApi.createAdminPrompt, patch: adminPromptsApi.patchAdminPrompt, remove: adminPromptsApi.deleteAdminPrompt },
] as const;

/** Subscribing, with a card just registered or the one on file: the same answers, the same messages. */
const SUBSCRIBE_MESSAGES = {
  codes: {
    payment_in_progress: 'billing:errors.payment_in_progress',
    invalid_payment_result: BY_STATUS,
    card_declined: BY_STATUS,
    billing_admin_only: BY_STATUS,
    not_found: BY_STATUS,
    already_subscribed: BY_STATUS,
    payment_method_required: BY_STATUS,
    payment_provider_unavailable: BY_STATUS,
  },
  statuses: {
    402: 'billing:errors.card_declined',
    400: 'billing:errors.invalid_card',
    403: 'billing:errors.admin_only',
    409: 'billing:errors.already_subscribed',
    422: 'billing:errors.payment_method_required',
    502: 'billing:errors.provider_unavailable',
  },
} as const;

/** A file upload, to a chat or to a chatbot's knowledge: every refusal by its status. */
const UPLOAD_CODES = {
  file_corrupted: BY_STATUS,
  forbidden: BY_STATUS,
  not_found: BY_STATUS,
  file_too_large: BY_STATUS,
  too_many_pages: BY_STATUS,
  unsupported_file_type: BY_STATUS,
  validation_error: BY_STATUS,
} as const;

/** A chat message refused before the answer (chatApi.CHAT_SEND_ERRORS), where each refusal is told by its status. */
const CHAT_SEND_CODES = {
  web_search_unavailable: BY_STATUS,
  credits_depleted: BY_STATUS,
  forbidden: BY_STATUS,
  model_not_allowed: BY_STATUS,
  not_found: BY_STATUS,
  input_too_long: BY_STATUS,
  message_empty: BY_STATUS,
  restricted_term: BY_STATUS,
  web_search_failed: BY_STATUS,
  pii_blocked: BY_STATUS,
} as const;

/** The SSO steps before an account: the same statuses, the same messages. */
const SSO_STATUSES = {
  401: 'sso:errors.expired',
  403: 'sso:errors.not_eligible',
  404: 'sso:errors.platform_missing',
  424: 'sso:errors.mail_failed',
  429: 'sso:errors.too_many',
} as const;

/** Creating a member group or changing it. */
const GROUP_SAVE_STATUSES = {
  403: 'adminGroups:errors.no_permission',
  409: 'adminGroups:errors.name_in_use',
  422: 'adminGroups:errors.default_locked',
  400: 'adminGroups:errors.invalid',
  404: 'adminGroups:errors.not_found',
  500: 'adminGroups:errors.save_failed',
} as const;

/**
 * The messages (spec §8) of every endpoint after sign-in, one entry per endpoint that declares error
 * codes or has messages of its own (errorMessages.ts says how a failure finds its message): loaded
 * with the first lazy route (router.tsx), registered into the lookup of `errorMessages.ts` as this
 * module loads.
 */
export const ERROR_CATALOG = [
  // Verification code and sign-up (spec §8): the server's reason codes name the field at fault;
  // `field_name` and `retry_after_seconds` of the details fill the messages in.
  errorMessagesOf(signupApi.sendCode, {
    codes: {
      invalid_phone: 'signup:errors.invalid_phone',
      sms_failed: 'signup:errors.sms_failed',
      code_cooldown: 'signup:errors.cooldown',
      invalid_email: BY_STATUS,
      signup_closed: BY_STATUS,
      already_registered: BY_STATUS,
      validation_error: BY_STATUS,
      mail_failed: BY_STATUS,
    },
    statuses: {
      0: 'auth:sign_in_errors.network',
      403: 'signup:errors.closed',
      409: 'signup:errors.already_registered',
      422: 'signup:errors.invalid_input',
      424: 'signup:errors.mail_failed',
      400: 'signup:errors.invalid_email',
    },
    otherwise: 'signup:errors.code_failed',
  }),
  errorMessagesOf(signupApi.signUp, {
    codes: {
      code_expired: 'signup:errors.code_expired',
      value_already_used: 'signup:errors.value_already_used',
      common_password: 'common:validation.password_common',
      invalid_email: 'signup:errors.invalid_email',
      invalid_password: 'signup:errors.invalid_password',
      invalid_name: 'signup:errors.invalid_name',
      invalid_member_type: 'signup:errors.invalid_member_type',
      invalid_member_group: 'signup:errors.invalid_member_group',
      invalid_signup_field: 'signup:errors.invalid_signup_field',
      invalid_sso_user_type: 'signup:errors.invalid_sso_user_type',
      required_field_missing: 'signup:errors.required_field_missing',
      invalid_field_value: 'signup:errors.invalid_field_value',
      policy_agreement_required: 'signup:errors.policy_agreement_required',
      invalid_code: BY_STATUS,
      member_limit_reached: BY_STATUS,
      signup_closed: BY_STATUS,
      already_registered: BY_STATUS,
      validation_error: BY_STATUS,
    },
    statuses: {
      0: 'auth:sign_in_errors.network',
      401: 'signup:errors.invalid_code',
      402: 'signup:errors.member_limit',
      403: 'signup:errors.closed',
      409: 'signup:errors.already_registered',
      422: 'signup:errors.invalid_input',
      400: 'signup:errors.invalid_request',
    },
    otherwise: 'signup:errors.create_failed',
  }),
  // Passwords (spec §8 "Reset password"; the confirm and change calls are ours, ARCHITECTURE "Passwords").
  errorMessagesOf(passwordsApi.resetPassword, {
    codes: { validation_error: BY_STATUS, mail_failed: BY_STATUS },
    statuses: {
      0: 'errors:network',
      400: 'account:reset_errors.400',
      401: 'account:reset_errors.401',
      422: 'account:reset_errors.400',
      424: 'account:reset_errors.424',
      429: 'account:errors.429',
    },
    otherwise: 'account:reset_errors.500',
  }),
  errorMessagesOf(passwordsApi.confirmPasswordReset, {
    codes: {
      reset_link_expired: 'account:reset_errors.link_expired',
      reset_link_invalid: 'account:reset_errors.link_invalid',
      common_password: 'common:validation.password_common',
      validation_error: BY_STATUS,
    },
    statuses: { 422: [{ when: tooShort, key: 'common:validation.password_too_short' }, 'common:validation.password_weak'], 429: 'account:errors.429' },
  }),
  errorMessagesOf(passwordsApi.changePassword, {
    codes: { wrong_password: 'account:change_password.wrong_password', common_password: 'common:validation.password_common', validation_error: BY_STATUS },
    statuses: { 422: [{ when: tooShort, key: 'common:validation.password_too_short' }, 'common:validation.password_weak'], 429: 'account:errors.429' },
  }),
  // Chat send, rejected before the stream: a blank message and a restricted term are 422 with their
  // code, a malformed body 400; 428 is personal data the tenant blocks (`pii_blocked`). 402 names who
  // ran out of credits (spec §4); the chat page's banner adds what to do about it.
  errorMessagesOf(chatApi.chat, {
    codes: {
      web_search_unavailable: 'sources:errors.web_search_unavailable',
      web_search_failed: 'sources:errors.web_search_failed',
      message_empty: 'chat:errors.message_empty',
      restricted_term: 'chat:errors.restricted_term',
      credits_depleted: BY_STATUS,
      forbidden: BY_STATUS,
      model_not_allowed: BY_STATUS,
      not_found: BY_STATUS,
      input_too_long: BY_STATUS,
      pii_blocked: BY_STATUS,
    },
    statuses: {
      0: 'chat:errors.network',
      400: 'chat:errors.no_text',
      402: [...DEPLETION_KINDS.map((kind) => ({ when: depletionIs(kind), key: `credits:depleted.${kind}` as const })), 'chat:errors.credits_depleted'],
      403: 'chat:errors.model_not_allowed',
      413: 'chat:errors.input_too_long',
      422: 'chat:errors.validation_failed',
      // Spec §8 lists a restricted term as 428 too; this server answers it with 422.
      428: [{ when: (error) => error.code === 'restricted_term', key: 'chat:errors.restricted_term' }, 'chat:errors.pii_blocked'],
    },
    otherwise: 'chat:errors.send_failed',
  }),
  // File upload and delete (spec §8); 429 names the limit, window, count and reset time (details).
  errorMessagesOf(filesApi.uploadFiles, {
    codes: UPLOAD_CODES,
    statuses: {
      400: 'files:errors.upload_400',
      403: 'files:errors.upload_403',
      413: 'files:errors.upload_413',
      415: 'files:errors.upload_415',
      422: 'files:errors.upload_422',
      429: 'files:errors.upload_429',
      500: 'files:errors.upload_500',
    },
    otherwise: 'files:errors.upload_failed',
  }),
  errorMessagesOf(filesApi.deleteFile, {
    codes: { forbidden: BY_STATUS, not_found: BY_STATUS, file_in_use: BY_STATUS },
    statuses: { 403: 'files:errors.delete_403', 422: 'files:errors.delete_422', 500: 'files:errors.delete_500' },
  }),
  // Dashboard and lists.
  errorMessagesOf(chatbotsApi.listChatbots, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS }, statuses: { 422: 'dashboard:get_chatbot_list_422' } }),
  errorMessagesOf(membersApi.getCreditCheck, {
    codes: { forbidden: BY_STATUS, not_found: BY_STATUS },
    statuses: { 500: 'dashboard:get_member_credit_check_500' },
  }),
  errorMessagesOf(taskModesApi.listTaskModes, { codes: {}, statuses: { 500: 'modes:errors.task_modes_500' } }),
  errorMessagesOf(sessionsApi.patchSession, { codes: { not_found: BY_STATUS }, statuses: { 404: 'chat:session.notFound', 403: 'chat:session.noHistory' } }),
  // Studio (spec §8): the model must be allowed for the member's groups; only the author changes a chatbot.
  // Documents are uploaded like any file: the same limits and messages.
  errorMessagesOf(chatbotsApi.updateChatbot, {
    codes: {
      model_not_allowed: 'studio:errors.model_not_allowed',
      tool_not_allowed: 'studio:errors.tool_not_allowed',
      forbidden: BY_STATUS,
      not_found: BY_STATUS,
      conflict: BY_STATUS,
      validation_error: BY_STATUS,
    },
    statuses: { 403: 'studio:errors.not_yours', 404: 'studio:errors.not_found', 409: 'studio:errors.link_taken' },
  }),
  errorMessagesOf(chatbotsApi.updateChatbotAccess, {
    codes: { forbidden: BY_STATUS, not_found: BY_STATUS, validation_error: BY_STATUS },
    statuses: { 403: 'studio:errors.not_yours', 404: 'studio:errors.not_found', 422: 'studio:errors.name_first' },
  }),
  errorMessagesOf(chatbotsApi.deleteChatbot, {
    codes: { forbidden: BY_STATUS, not_found: BY_STATUS },
    statuses: { 403: 'studio:errors.not_yours', 404: 'studio:errors.not_found' },
  }),
  errorMessagesOf(chatbotsApi.uploadChatbotDocuments, {
    codes: UPLOAD_CODES,
    statuses: {
      400: 'files:errors.upload_400',
      403: 'studio:errors.not_yours',
      413: 'files:errors.upload_413',
      415: 'files:errors.upload_415',
      422: 'files:errors.upload_422',
    },
    otherwise: 'files:errors.upload_failed',
  }),
  errorMessagesOf(chatbotsApi.deleteChatbotDocument, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS }, statuses: { 403: 'studio:errors.not_yours' } }),
  // SSO (spec §8 "Other"): the platform's refusals, codes of the directory's second step, the whitelist.
  errorMessagesOf(ssoApi.ssoVerify, {
    codes: {
      sso_rejected: 'sso:errors.rejected',
      code_expired: 'sso:errors.code_expired',
      invalid_code: 'sso:errors.invalid_code',
      invalid_phone: 'sso:errors.no_phone',
      sso_unavailable: 'sso:errors.unavailable',
      code_cooldown: 'sso:errors.cooldown',
      sso_identity_expired: BY_STATUS,
      not_eligible: BY_STATUS,
      not_found: BY_STATUS,
      validation_error: BY_STATUS,
      mail_failed: BY_STATUS,
      sms_failed: BY_STATUS,
    },
    statuses: SSO_STATUSES,
  }),
  errorMessagesOf(ssoApi.ssoSendCode, {
    codes: {
      invalid_phone: 'sso:errors.no_phone',
      code_cooldown: 'sso:errors.cooldown',
      sso_identity_expired: BY_STATUS,
      not_found: BY_STATUS,
      validation_error: BY_STATUS,
      mail_failed: BY_STATUS,
      sms_failed: BY_STATUS,
    },
    statuses: SSO_STATUSES,
  }),
  errorMessagesOf(ssoApi.ssoAuthorize, {
    codes: { sso_rejected: 'sso:errors.rejected', sso_unavailable: 'sso:errors.unavailable', not_found: BY_STATUS, validation_error: BY_STATUS },
    statuses: SSO_STATUSES,
  }),
  errorMessagesOf(authApi.ssoSignIn, {
    codes: {
      not_eligible: 'sso:errors.not_eligible',
      sso_identity_expired: BY_STATUS,
      account_deactivated: BY_STATUS,
      not_approved: BY_STATUS,
      not_found: BY_STATUS,
      sso_account_not_found: BY_STATUS,
    },
    statuses: {
      0: 'auth:sign_in_errors.network',
      401: 'sso:errors.expired',
      403: [{ when: isIndividual, key: 'auth:sign_in_errors.403_individual' }, 'auth:sign_in_errors.403'],
      423: 'auth:sign_in_errors.423',
      429: 'sso:errors.too_many',
    },
  }),
  errorMessagesOf(ssoApi.ssoSignUp, {
    codes: {
      not_eligible: 'sso:errors.not_eligible',
      value_already_used: 'signup:errors.value_already_used',
      invalid_email: 'signup:errors.invalid_email',
      invalid_name: 'signup:errors.invalid_name',
      invalid_member_group: 'signup:errors.invalid_member_group',
      invalid_signup_field: 'signup:errors.invalid_signup_field',
      required_field_missing: 'signup:errors.required_field_missing',
      invalid_field_value: 'signup:errors.invalid_field_value',
      policy_agreement_required: 'signup:errors.policy_agreement_required',
      sso_identity_expired: BY_STATUS,
      member_limit_reached: BY_STATUS,
      signup_closed: BY_STATUS,
      not_found: BY_STATUS,
      already_registered: BY_STATUS,
      validation_error: BY_STATUS,
    },
    statuses: { 401: 'sso:errors.expired', 402: 'signup:errors.member_limit', 403: 'signup:errors.closed', 409: 'signup:errors.already_registered' },
  }),
  errorMessagesOf(ssoApi.connectSsoAccount, {
    codes: { sso_identity_expired: BY_STATUS, forbidden: BY_STATUS, not_found: BY_STATUS, sso_account_in_use: BY_STATUS },
    statuses: { 401: 'sso:errors.expired', 409: 'sso:errors.in_use' },
  }),
  errorMessagesOf(ssoApi.disconnectSsoAccount, {
    codes: { forbidden: BY_STATUS, not_found: BY_STATUS, sso_password_required: BY_STATUS },
    statuses: { 422: 'sso:errors.password_required' },
  }),
  // Admin: a provider or directory address the server may not connect to (outbound guard).
  errorMessagesOf(adminSsoPlatformsApi.createSsoPlatform, { codes: { destination_refused: 'sso:admin.destination_refused', validation_error: BY_STATUS } }),
  errorMessagesOf(adminSsoPlatformsApi.updateSsoPlatform, {
    codes: { destination_refused: 'sso:admin.destination_refused', not_found: BY_STATUS, validation_error: BY_STATUS },
  }),
  // MCP servers (issue 24): a failed connection says why, in the words the list shows for it.
  errorMessagesOf(adminMcpServersApi.createMcpServer, { codes: { ...MCP_CONNECTION_MESSAGES, mcp_server_name_taken: 'mcp:errors.name_taken' } }),
  errorMessagesOf(adminMcpServersApi.updateMcpServer, {
    codes: { ...MCP_CONNECTION_MESSAGES, mcp_server_name_taken: 'mcp:errors.name_taken', not_found: BY_STATUS },
  }),
  errorMessagesOf(adminMcpServersApi.refreshMcpServer, { codes: { ...MCP_CONNECTION_MESSAGES, not_found: BY_STATUS } }),
  errorMessagesOf(adminMcpServersApi.listAdminMcpServers, { codes: {}, otherwise: 'mcp:errors.load_failed' }),
  errorMessagesOf(adminMcpServersApi.listMcpServerTools, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminMcpServersApi.updateMcpTool, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminMcpServersApi.deleteMcpServer, { codes: { not_found: BY_STATUS } }),
  // Invitations (spec §5, §8): "invitation not found", wrong temporary passwords.
  errorMessagesOf(invitationsApi.verifyInvitation, {
    codes: { invitation_not_found: BY_STATUS },
    statuses: { 404: 'account:invitation.not_found', 400: 'account:invitation.not_found' },
    otherwise: 'account:invitation.load_failed',
  }),
  errorMessagesOf(invitationsApi.acceptInvitation, {
    codes: {
      invalid_email: 'account:invitation.email_mismatch',
      common_password: 'common:validation.password_common',
      invalid_password: 'signup:errors.invalid_password',
      invalid_name: 'signup:errors.invalid_name',
      invalid_member_group: 'signup:errors.invalid_member_group',
      policy_agreement_required: 'signup:errors.policy_agreement_required',
      wrong_temporary_password: BY_STATUS,
      member_limit_reached: BY_STATUS,
      invitation_not_found: BY_STATUS,
      already_registered: BY_STATUS,
      value_already_used: BY_STATUS,
      invalid_field_value: BY_STATUS,
      invalid_signup_field: BY_STATUS,
      required_field_missing: BY_STATUS,
      validation_error: BY_STATUS,
    },
    statuses: {
      0: 'auth:sign_in_errors.network',
      401: 'account:invitation.wrong_temporary',
      404: 'account:invitation.not_found',
      402: 'signup:errors.member_limit',
      409: 'signup:errors.already_registered',
      429: 'account:invitation.too_many',
    },
  }),
  // Tenant membership (spec §8): 401 get_tenant_membership_data_401.
  errorMessagesOf(tenantMembershipApi.getTenantMembership, {
    codes: {},
    statuses: { 401: 'account:workspace.error_401' },
    otherwise: 'account:workspace.error',
  }),
  // Admin restricted words: spec §5 "a restricted word that already exists is refused". Spec §8 "Dashboard cards 403".
  errorMessagesOf(adminSecurityApi.createRestrictedWord, { codes: { conflict: BY_STATUS }, statuses: { 409: 'security:words.duplicate' } }),
  errorMessagesOf(adminLlmModelsApi.setModelGroupPermission, {
    codes: { not_found: BY_STATUS, model_locked: BY_STATUS },
    statuses: { 422: 'models:errors.model_locked' },
  }),
  errorMessagesOf(adminDashboardsApi.getDashboard, { codes: {}, statuses: { 403: 'adminDashboard:errors.cards_403' } }),
  errorMessagesOf(adminCreditsApi.updateCreditAllocation, {
    codes: { default_group_locked: 'adminCredits:errors.default_group_locked', not_found: BY_STATUS },
  }),
  // Chatbot approve (spec §8): 404, 422.
  errorMessagesOf(adminChatbotsApi.processPublishRequest, {
    codes: { not_found: BY_STATUS, reason_required: BY_STATUS },
    statuses: { 404: 'publishing:errors.not_found', 422: 'publishing:errors.reason_required' },
  }),
  errorMessagesOf(adminChatbotsApi.bulkProcessPublishRequests, {
    codes: { not_found: BY_STATUS, reason_required: BY_STATUS },
    statuses: { 404: 'publishing:errors.not_found', 422: 'publishing:errors.reason_required' },
  }),
  // Admin members (spec §8 "Member patch: 400, 404, 500. Member delete: 404, 500"; member approve 402).
  errorMessagesOf(adminMembersApi.patchAdminMember, {
    codes: {
      own_account: 'adminMembers:errors.own_account',
      not_found: BY_STATUS,
      value_already_used: BY_STATUS,
      invalid_field_value: BY_STATUS,
      invalid_member_group: BY_STATUS,
      required_field_missing: BY_STATUS,
      validation_error: BY_STATUS,
    },
    statuses: { 404: 'adminMembers:errors.not_found', 409: 'adminMembers:errors.value_taken', 422: 'adminMembers:errors.invalid' },
  }),
  errorMessagesOf(adminMembersApi.deleteAdminMember, {
    codes: { own_account: 'adminMembers:errors.own_account', not_found: BY_STATUS },
    statuses: { 404: 'adminMembers:errors.not_found' },
  }),
  errorMessagesOf(adminMembersApi.bulkDeleteMembers, {
    codes: { own_account: 'adminMembers:errors.own_account', not_found: BY_STATUS },
    statuses: { 404: 'adminMembers:errors.not_found' },
  }),
  errorMessagesOf(adminMemberRequestsApi.processPendingRequest, {
    codes: { member_limit_reached: BY_STATUS, not_found: BY_STATUS, reason_required: BY_STATUS },
    statuses: { 402: 'adminMembers:errors.member_limit', 404: 'adminMembers:errors.request_gone', 422: 'adminMembers:errors.reason_required' },
  }),
  errorMessagesOf(adminMemberRequestsApi.bulkProcessPendingRequests, {
    codes: { member_limit_reached: BY_STATUS, not_found: BY_STATUS, reason_required: BY_STATUS },
    statuses: { 402: 'adminMembers:errors.member_limit', 404: 'adminMembers:errors.request_gone', 422: 'adminMembers:errors.reason_required' },
  }),
  // Tenant settings (ARCHITECTURE "Tenant settings"): uploads have the chat files' statuses; a field
  // change refused because of stored values names the field and the value (details).
  errorMessagesOf(adminTenantSettingsApi.uploadTenantLogo, {
    codes: { file_corrupted: BY_STATUS, not_found: BY_STATUS, file_too_large: BY_STATUS, unsupported_file_type: BY_STATUS, validation_error: BY_STATUS },
    statuses: { 413: 'tenantSettings:branding.logo_too_large', 415: 'tenantSettings:branding.logo_type' },
    otherwise: 'tenantSettings:branding.logo_failed',
  }),
  errorMessagesOf(adminTenantSettingsApi.updateTenantSettings, {
    codes: { not_found: BY_STATUS },
    statuses: { 400: 'tenantSettings:branding.save_invalid' },
    otherwise: 'tenantSettings:branding.save_failed',
  }),
  errorMessagesOf(adminCustomFieldsApi.createCustomField, {
    codes: { field_name_taken: BY_STATUS, validation_error: BY_STATUS },
    statuses: { 409: 'tenantSettings:fields.name_taken', 422: 'tenantSettings:fields.too_many' },
  }),
  errorMessagesOf(adminCustomFieldsApi.updateCustomField, {
    codes: {
      field_name_taken: 'tenantSettings:fields.name_taken',
      field_name_required: 'tenantSettings:validation.one_name',
      values_not_unique: 'tenantSettings:fields.values_not_unique',
      values_not_numbers: 'tenantSettings:fields.values_not_numbers',
      not_found: BY_STATUS,
    },
    statuses: { 404: 'tenantSettings:fields.not_found' },
  }),
  errorMessagesOf(adminCustomFieldsApi.deleteCustomField, { codes: { not_found: BY_STATUS }, statuses: { 404: 'tenantSettings:fields.not_found' } }),
  errorMessagesOf(adminTaskModesApi.createTaskMode, {
    codes: { task_mode_name_taken: 'tenantSettings:modes.name_taken', validation_error: BY_STATUS },
    statuses: { 422: 'tenantSettings:modes.too_many', 404: 'tenantSettings:modes.not_found' },
  }),
  errorMessagesOf(adminTaskModesApi.updateTaskMode, {
    codes: { task_mode_name_taken: 'tenantSettings:modes.name_taken', task_mode_name_required: 'tenantSettings:validation.one_name', not_found: BY_STATUS },
    statuses: { 422: 'tenantSettings:modes.too_many', 404: 'tenantSettings:modes.not_found' },
  }),
  errorMessagesOf(adminTaskModesApi.deleteTaskMode, { codes: { not_found: BY_STATUS }, statuses: { 404: 'tenantSettings:modes.not_found' } }),
  errorMessagesOf(adminPoliciesApi.uploadPolicyFile, {
    codes: { file_corrupted: BY_STATUS, file_too_large: BY_STATUS, unsupported_file_type: BY_STATUS, validation_error: BY_STATUS },
    statuses: { 413: 'tenantSettings:policies.file_too_large', 415: 'tenantSettings:policies.file_type' },
    otherwise: 'files:errors.upload_failed',
  }),
  errorMessagesOf(adminPoliciesApi.createPolicy, {
    codes: { not_found: BY_STATUS, validation_error: BY_STATUS },
    statuses: { 422: 'tenantSettings:policies.content_missing', 400: 'tenantSettings:policies.invalid' },
  }),
  errorMessagesOf(adminPoliciesApi.updatePolicy, {
    codes: { not_found: BY_STATUS, validation_error: BY_STATUS },
    statuses: { 422: 'tenantSettings:policies.content_missing', 400: 'tenantSettings:policies.invalid', 404: 'tenantSettings:policies.not_found' },
  }),
  errorMessagesOf(adminPoliciesApi.deletePolicy, { codes: { not_found: BY_STATUS }, statuses: { 404: 'tenantSettings:policies.not_found' } }),
  // My page custom fields: the sign-up reasons and messages (spec §5, §8), and one of ours.
  errorMessagesOf(membersApi.patchMember, {
    codes: {
      value_already_used: 'signup:errors.value_already_used',
      required_field_missing: 'signup:errors.required_field_missing',
      invalid_field_value: 'signup:errors.invalid_field_value',
      field_not_editable: 'account:custom_fields.not_editable',
      forbidden: BY_STATUS,
      not_found: BY_STATUS,
      validation_error: BY_STATUS,
    },
  }),
  // Plans and payments: a declined card, an answer the provider did not confirm, the provider unreachable.
  errorMessagesOf(billingApi.registerCardAndSubscribe, SUBSCRIBE_MESSAGES),
  errorMessagesOf(billingApi.subscribeToPlan, SUBSCRIBE_MESSAGES),
  errorMessagesOf(billingApi.cancelMembership, {
    codes: { billing_admin_only: BY_STATUS, no_membership: BY_STATUS, already_cancelled: BY_STATUS },
    statuses: { 409: 'billing:errors.already_cancelled', 404: 'billing:errors.no_membership' },
  }),
  errorMessagesOf(billingApi.resumeMembership, {
    codes: { billing_admin_only: BY_STATUS, no_membership: BY_STATUS, not_cancelled: BY_STATUS },
    statuses: { 409: 'billing:errors.not_cancelled', 404: 'billing:errors.no_membership' },
  }),
  // Member bulk upload (docs/ARCHITECTURE.md "Member export and bulk upload").
  errorMessagesOf(adminMemberTransferApi.uploadMembers, {
    codes: {
      missing_column: 'memberTransfer:upload.errors.missing_column',
      excluded_column: 'memberTransfer:upload.errors.excluded_column',
      unknown_column: 'memberTransfer:upload.errors.unknown_column',
      duplicate_column: 'memberTransfer:upload.errors.duplicate_column',
      empty_file: 'memberTransfer:upload.errors.empty_file',
      too_many_rows: 'memberTransfer:upload.errors.too_many_rows',
      file_corrupted: BY_STATUS,
      invitation_limit_reached: BY_STATUS,
      file_too_large: BY_STATUS,
      unsupported_file_type: BY_STATUS,
      validation_error: BY_STATUS,
    },
    statuses: {
      413: 'memberTransfer:upload.errors.file_too_large',
      415: 'memberTransfer:upload.errors.unsupported_file_type',
      400: 'memberTransfer:upload.errors.file_corrupted',
      403: 'errors:status_403',
    },
    otherwise: 'memberTransfer:upload.errors.failed',
  }),
  // Developers: a chosen chatbot the member no longer sees; a key revoked meanwhile (another tab).
  errorMessagesOf(apiKeysApi.createApiKey, { codes: { not_found: BY_STATUS }, statuses: { 404: 'developers:errors.chatbot_not_found' } }),
  errorMessagesOf(apiKeysApi.updateApiKey, {
    codes: { api_key_expired: 'developers:errors.expired', not_found: BY_STATUS, conflict: BY_STATUS },
    statuses: { 404: 'developers:errors.chatbot_not_found', 409: 'developers:errors.revoked' },
  }),
  // Admin member groups (spec §6 "sign out and retry", §8 "Group patch", "Group delete").
  errorMessagesOf(adminMemberGroupsApi.createMemberGroup, {
    codes: { not_found: BY_STATUS, group_name_taken: BY_STATUS, invalid_member_group: BY_STATUS },
    statuses: GROUP_SAVE_STATUSES,
  }),
  errorMessagesOf(adminMemberGroupsApi.patchMemberGroup, {
    codes: { group_name_required: 'adminGroups:validation.one_name', not_found: BY_STATUS, group_name_taken: BY_STATUS, default_group_locked: BY_STATUS },
    statuses: GROUP_SAVE_STATUSES,
  }),
  errorMessagesOf(adminMemberGroupsApi.deleteMemberGroup, {
    codes: { not_found: BY_STATUS, default_group_locked: BY_STATUS, invalid_member_group: BY_STATUS },
    statuses: { 404: 'adminGroups:errors.not_found', 422: 'adminGroups:errors.default_undeletable' },
    otherwise: 'adminGroups:errors.delete_failed',
  }),
  errorMessagesOf(adminMemberGroupsApi.removeMemberGroupMember, {
    codes: { not_found: BY_STATUS, default_group_locked: BY_STATUS, invalid_member_group: BY_STATUS },
    statuses: { 404: 'adminGroups:errors.member_not_found', 422: 'adminGroups:errors.default_member' },
  }),
  // Prompt library: a name in use is said under the name field; the rest in a toast.
  ...PROMPT_WRITES.flatMap(({ create, patch, remove }) => [
    errorMessagesOf(create, {
      codes: { prompt_name_taken: 'prompts:errors.name_taken', prompt_limit_reached: 'prompts:errors.limit' },
      otherwise: 'prompts:errors.save_failed',
    }),
    errorMessagesOf(patch, {
      codes: { prompt_name_taken: 'prompts:errors.name_taken', not_found: 'prompts:errors.not_found' },
      otherwise: 'prompts:errors.save_failed',
    }),
    errorMessagesOf(remove, { codes: { not_found: 'prompts:errors.not_found' }, otherwise: 'prompts:errors.delete_failed' }),
  ]),
  // Admin invitations: the plan's cap (402), SSO members cannot invite (403), gone (404).
  errorMessagesOf(adminInvitationsApi.bulkInvite, {
    codes: { invitation_limit_reached: BY_STATUS },
    statuses: { 402: 'adminInvitations:errors.limit', 403: 'adminInvitations:errors.sso_member', 400: 'adminInvitations:errors.invalid' },
  }),
  errorMessagesOf(adminInvitationsApi.bulkDeleteInvitations, { codes: { not_found: BY_STATUS }, statuses: { 404: 'adminInvitations:errors.not_found' } }),
  // SSO whitelist.
  errorMessagesOf(adminSsoWhitelistApi.bulkDeleteSsoWhitelist, { codes: { not_found: BY_STATUS }, statuses: { 404: 'ssoWhitelist:errors.not_found' } }),
  errorMessagesOf(adminSsoWhitelistApi.bulkUpsertSsoWhitelist, { codes: {}, statuses: { 400: 'ssoWhitelist:errors.invalid' } }),

  errorMessagesOf(feedbackApi.rateAnswer, {
    codes: { not_found: 'feedback:errors.answer_not_found', answer_not_finished: 'feedback:errors.answer_not_finished' },
  }),
  errorMessagesOf(feedbackApi.removeAnswerFeedback, { codes: { not_found: 'feedback:errors.answer_not_found' } }),
  errorMessagesOf(feedbackApi.getChatbotFeedback, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS } }),
  // Endpoints whose every declared code takes the message of its status (spec §8 names none of their own).
  errorMessagesOf(adminAnnouncementsApi.deleteAnnouncement, { codes: { announcement_update_failed: BY_STATUS } }),
  errorMessagesOf(adminAnnouncementsApi.patchAnnouncement, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminChatbotsApi.listAdminChatbots, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminDashboardsApi.getDashboardUsage, { codes: { validation_error: BY_STATUS } }),
  errorMessagesOf(adminMemberGroupsApi.getAdminMemberGroup, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminMemberGroupsApi.listMemberGroupMembers, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminMemberTransferApi.downloadMemberExport, { codes: { export_file_missing: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(adminMembersApi.bulkPatchMembers, { codes: { own_account: BY_STATUS } }),
  errorMessagesOf(adminMembersApi.getAdminMember, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminSecurityApi.deleteRestrictedWord, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminSignupSettingsApi.updateSignupSettings, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminSsoPlatformsApi.deleteSsoPlatform, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminTenantSettingsApi.deleteTenantLogo, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminTenantSettingsApi.getTenantLogo, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(adminTenantSettingsApi.getTenantSettings, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(apiKeysApi.revokeApiKey, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(authApi.refresh, { codes: { session_expired: BY_STATUS, account_deactivated: BY_STATUS } }),
  errorMessagesOf(billingApi.listPayments, { codes: { billing_admin_only: BY_STATUS } }),
  errorMessagesOf(chatbotsApi.checkPublicHash, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(chatbotsApi.createChatbot, { codes: { model_not_allowed: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(chatbotsApi.getChatbot, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(chatbotsApi.rememberChatbot, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(creditsApi.getMemberUsage, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(filesApi.getFile, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(filesApi.getPublicFile, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(filesApi.getSharedSessionFile, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(groupRequestsApi.getMemberGroups, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(groupRequestsApi.requestGroupChange, {
    codes: { forbidden: BY_STATUS, not_found: BY_STATUS, invalid_member_group: BY_STATUS, validation_error: BY_STATUS },
  }),
  errorMessagesOf(groupRequestsApi.withdrawGroupChange, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(membersApi.getMember, { codes: { forbidden: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(openAiApi.chatCompletions, {
    codes: { ...CHAT_SEND_CODES, upstream_failed: BY_STATUS, answer_not_saved: BY_STATUS, server_shutting_down: BY_STATUS },
  }),
  errorMessagesOf(publicSessionsApi.generatePublicSessionTitle, { codes: { no_history: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(publicSessionsApi.getPublicChatbot, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(publicSessionsApi.getPublicSession, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(publicSessionsApi.getPublicSessionHistory, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(publicSessionsApi.publicChat, {
    codes: { ...CHAT_SEND_CODES, visitor_files_not_allowed: BY_STATUS },
  }),
  errorMessagesOf(sessionsApi.deleteSession, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(sessionsApi.generateSessionTitle, { codes: { no_history: BY_STATUS, not_found: BY_STATUS } }),
  errorMessagesOf(sessionsApi.getSession, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(sessionsApi.getSessionHistory, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(sessionTransferApi.exportSession, { codes: { not_found: 'chatExport:errors.not_found' } }),
  // A chat import (issue 23): every refusal says what to do about the file.
  errorMessagesOf(sessionTransferApi.importSession, {
    codes: { chatbot_not_usable: 'chatExport:import.chatbot_not_usable', bad_request: BY_STATUS, restricted_term: BY_STATUS, pii_blocked: BY_STATUS },
    statuses: { 400: 'chatExport:import.invalid', 413: 'chatExport:import.too_large' },
  }),
  errorMessagesOf(sessionsApi.switchBranch, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(signupApi.getPolicyFile, { codes: { not_found: BY_STATUS } }),
  errorMessagesOf(tasksApi.getTask, { codes: { not_found: BY_STATUS } }),
];

addErrorMessages(ERROR_CATALOG);

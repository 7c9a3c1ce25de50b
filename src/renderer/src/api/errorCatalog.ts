import { DEPLETION_KINDS, type DepletionKind } from '../../../shared/domain/credits';
import { adminInvitationsApi, adminMemberGroupsApi, adminMemberRequestsApi, adminMembersApi, adminMemberTransferApi, adminSsoWhitelistApi, apiKeysApi, billingApi, invitationsApi, tenantMembershipApi, adminChatbotsApi, adminCreditsApi, adminDashboardsApi, adminCustomFieldsApi, adminLlmModelsApi, adminPoliciesApi, adminSecurityApi, adminSsoPlatformsApi, adminTaskModesApi, adminTenantSettingsApi, authApi, chatApi, chatbotsApi, filesApi, membersApi, passwordsApi, sessionsApi, signupApi, ssoApi, taskModesApi, type ApiError } from '../../../shared/api';
import { type ErrorMessageRow, addErrorMessages, isIndividual } from './errorMessages';

/** A new password shorter than the tenant's minimum (the details name it; `errorMessageValues` passes it as `count`). */
const tooShort = (error: ApiError) => (error.body?.details as { reason?: string } | undefined)?.reason === 'validation.password_too_short';
const depletionIs = (kind: DepletionKind) => (error: ApiError) => (error.body?.details as { depletion?: string } | undefined)?.depletion === kind;

/**
 * The error rows (spec §8) of every endpoint after sign-in: loaded with the first lazy route
 * (router.tsx), registered into the lookup of `errorMessages.ts` as this module loads.
 */
export const ERROR_CATALOG: readonly ErrorMessageRow[] = [
  // Verification code and sign-up (spec §8): the server's reason codes name the field at fault;
  // `field_name` and `retry_after_seconds` of the details fill the messages in.
  { endpoint: signupApi.sendCode, status: 0, key: 'auth:sign_in_errors.network' },
  { endpoint: signupApi.sendCode, status: 403, key: 'signup:errors.closed' },
  { endpoint: signupApi.sendCode, status: 409, key: 'signup:errors.already_registered' },
  { endpoint: signupApi.sendCode, status: 422, code: 'invalid_phone', key: 'signup:errors.invalid_phone' },
  { endpoint: signupApi.sendCode, status: 422, key: 'signup:errors.invalid_input' },
  { endpoint: signupApi.sendCode, status: 424, code: 'sms_failed', key: 'signup:errors.sms_failed' },
  { endpoint: signupApi.sendCode, status: 424, key: 'signup:errors.mail_failed' },
  { endpoint: signupApi.sendCode, status: 429, code: 'code_cooldown', key: 'signup:errors.cooldown' },
  { endpoint: signupApi.sendCode, status: 400, key: 'signup:errors.invalid_email' },
  { endpoint: signupApi.sendCode, key: 'signup:errors.code_failed' },
  { endpoint: signupApi.signUp, status: 0, key: 'auth:sign_in_errors.network' },
  { endpoint: signupApi.signUp, status: 401, code: 'code_expired', key: 'signup:errors.code_expired' },
  { endpoint: signupApi.signUp, status: 401, key: 'signup:errors.invalid_code' },
  { endpoint: signupApi.signUp, status: 402, key: 'signup:errors.member_limit' },
  { endpoint: signupApi.signUp, status: 403, key: 'signup:errors.closed' },
  { endpoint: signupApi.signUp, status: 409, code: 'value_already_used', key: 'signup:errors.value_already_used' },
  { endpoint: signupApi.signUp, status: 409, key: 'signup:errors.already_registered' },
  { endpoint: signupApi.signUp, status: 422, code: 'common_password', key: 'common:validation.password_common' },
  ...(['invalid_email', 'invalid_password', 'invalid_name', 'invalid_member_type', 'invalid_member_group', 'invalid_signup_field', 'invalid_sso_user_type', 'required_field_missing', 'invalid_field_value', 'policy_agreement_required'] as const).map(
    (code) => ({ endpoint: signupApi.signUp, status: 422, code, key: `signup:errors.${code}` }),
  ),
  { endpoint: signupApi.signUp, status: 422, key: 'signup:errors.invalid_input' },
  { endpoint: signupApi.signUp, status: 400, key: 'signup:errors.invalid_request' },
  { endpoint: signupApi.signUp, key: 'signup:errors.create_failed' },
  // Passwords (spec §8 "Reset password"; the confirm and change calls are ours, ARCHITECTURE "Passwords").
  { endpoint: passwordsApi.resetPassword, status: 0, key: 'errors:network' },
  { endpoint: passwordsApi.resetPassword, status: 400, key: 'account:reset_errors.400' },
  { endpoint: passwordsApi.resetPassword, status: 401, key: 'account:reset_errors.401' },
  { endpoint: passwordsApi.resetPassword, status: 422, key: 'account:reset_errors.400' },
  { endpoint: passwordsApi.resetPassword, status: 424, key: 'account:reset_errors.424' },
  { endpoint: passwordsApi.resetPassword, status: 429, key: 'account:errors.429' },
  { endpoint: passwordsApi.resetPassword, key: 'account:reset_errors.500' },
  { endpoint: passwordsApi.confirmPasswordReset, status: 400, code: 'reset_link_expired', key: 'account:reset_errors.link_expired' },
  { endpoint: passwordsApi.confirmPasswordReset, status: 400, code: 'reset_link_invalid', key: 'account:reset_errors.link_invalid' },
  { endpoint: passwordsApi.confirmPasswordReset, status: 422, code: 'common_password', key: 'common:validation.password_common' },
  { endpoint: passwordsApi.confirmPasswordReset, status: 422, when: tooShort, key: 'common:validation.password_too_short' },
  { endpoint: passwordsApi.confirmPasswordReset, status: 422, key: 'common:validation.password_weak' },
  { endpoint: passwordsApi.confirmPasswordReset, status: 429, key: 'account:errors.429' },
  { endpoint: passwordsApi.changePassword, status: 400, code: 'wrong_password', key: 'account:change_password.wrong_password' },
  { endpoint: passwordsApi.changePassword, status: 422, code: 'common_password', key: 'common:validation.password_common' },
  { endpoint: passwordsApi.changePassword, status: 422, when: tooShort, key: 'common:validation.password_too_short' },
  { endpoint: passwordsApi.changePassword, status: 422, key: 'common:validation.password_weak' },
  { endpoint: passwordsApi.changePassword, status: 429, key: 'account:errors.429' },

  // Chat send, rejected before the stream: a blank message and a restricted term are 422 with their
  // code, a malformed body 400; 428 is personal data the tenant blocks (`pii_blocked`), or a restricted
  // term when a server answers that with 428 (spec §8 lists both statuses).
  { endpoint: chatApi.chat, status: 0, key: 'chat:errors.network' },
  { endpoint: chatApi.chat, status: 400, code: 'web_search_unavailable', key: 'sources:errors.web_search_unavailable' },
  { endpoint: chatApi.chat, status: 424, code: 'web_search_failed', key: 'sources:errors.web_search_failed' },
  { endpoint: chatApi.chat, status: 400, key: 'chat:errors.no_text' },
  // 402 names who ran out of credits (spec §4); the chat page's banner adds what to do about it.
  ...DEPLETION_KINDS.map((kind) => ({ endpoint: chatApi.chat, status: 402, when: depletionIs(kind), key: `credits:depleted.${kind}` })),
  { endpoint: chatApi.chat, status: 402, key: 'chat:errors.credits_depleted' },
  { endpoint: chatApi.chat, status: 403, key: 'chat:errors.model_not_allowed' },
  { endpoint: chatApi.chat, status: 413, key: 'chat:errors.input_too_long' },
  { endpoint: chatApi.chat, status: 422, code: 'message_empty', key: 'chat:errors.message_empty' },
  { endpoint: chatApi.chat, status: 422, code: 'restricted_term', key: 'chat:errors.restricted_term' },
  { endpoint: chatApi.chat, status: 422, key: 'chat:errors.validation_failed' },
  { endpoint: chatApi.chat, status: 428, code: 'restricted_term', key: 'chat:errors.restricted_term' },
  { endpoint: chatApi.chat, status: 428, key: 'chat:errors.pii_blocked' },
  { endpoint: chatApi.chat, key: 'chat:errors.send_failed' },

  // File upload and delete (spec §8); 429 names the limit, window, count and reset time (details).
  { endpoint: filesApi.uploadFiles, status: 400, key: 'files:errors.upload_400' },
  { endpoint: filesApi.uploadFiles, status: 403, key: 'files:errors.upload_403' },
  { endpoint: filesApi.uploadFiles, status: 413, key: 'files:errors.upload_413' },
  { endpoint: filesApi.uploadFiles, status: 415, key: 'files:errors.upload_415' },
  { endpoint: filesApi.uploadFiles, status: 422, key: 'files:errors.upload_422' },
  { endpoint: filesApi.uploadFiles, status: 429, key: 'files:errors.upload_429' },
  { endpoint: filesApi.uploadFiles, status: 500, key: 'files:errors.upload_500' },
  { endpoint: filesApi.uploadFiles, key: 'files:errors.upload_failed' },
  { endpoint: filesApi.deleteFile, status: 403, key: 'files:errors.delete_403' },
  { endpoint: filesApi.deleteFile, status: 422, key: 'files:errors.delete_422' },
  { endpoint: filesApi.deleteFile, status: 500, key: 'files:errors.delete_500' },

  // Dashboard and lists.
  { endpoint: chatbotsApi.listChatbots, status: 422, key: 'dashboard:get_chatbot_list_422' },
  { endpoint: membersApi.getCreditCheck, status: 500, key: 'dashboard:get_member_credit_check_500' },
  { endpoint: taskModesApi.listTaskModes, status: 500, key: 'modes:errors.task_modes_500' },
  { endpoint: sessionsApi.patchSession, status: 404, key: 'chat:session.notFound' },
  { endpoint: sessionsApi.patchSession, status: 403, key: 'chat:session.noHistory' },

  // Studio (spec §8): the model must be allowed for the member's groups; only the author changes a chatbot.
  { endpoint: chatbotsApi.updateChatbot, status: 403, code: 'model_not_allowed', key: 'studio:errors.model_not_allowed' },
  { endpoint: chatbotsApi.updateChatbot, status: 403, key: 'studio:errors.not_yours' },
  { endpoint: chatbotsApi.updateChatbot, status: 404, key: 'studio:errors.not_found' },
  { endpoint: chatbotsApi.updateChatbot, status: 409, key: 'studio:errors.link_taken' },
  { endpoint: chatbotsApi.updateChatbotAccess, status: 403, key: 'studio:errors.not_yours' },
  { endpoint: chatbotsApi.updateChatbotAccess, status: 404, key: 'studio:errors.not_found' },
  { endpoint: chatbotsApi.updateChatbotAccess, status: 422, key: 'studio:errors.name_first' },
  { endpoint: chatbotsApi.deleteChatbot, status: 403, key: 'studio:errors.not_yours' },
  { endpoint: chatbotsApi.deleteChatbot, status: 404, key: 'studio:errors.not_found' },
  // Documents are uploaded like any file: the same limits and messages.
  { endpoint: chatbotsApi.uploadChatbotDocuments, status: 400, key: 'files:errors.upload_400' },
  { endpoint: chatbotsApi.uploadChatbotDocuments, status: 403, key: 'studio:errors.not_yours' },
  { endpoint: chatbotsApi.uploadChatbotDocuments, status: 413, key: 'files:errors.upload_413' },
  { endpoint: chatbotsApi.uploadChatbotDocuments, status: 415, key: 'files:errors.upload_415' },
  { endpoint: chatbotsApi.uploadChatbotDocuments, status: 422, key: 'files:errors.upload_422' },
  { endpoint: chatbotsApi.uploadChatbotDocuments, key: 'files:errors.upload_failed' },
  { endpoint: chatbotsApi.deleteChatbotDocument, status: 403, key: 'studio:errors.not_yours' },

  // SSO (spec §8 "Other"): the platform's refusals, codes of the directory's second step, the whitelist.
  ...[ssoApi.ssoVerify, ssoApi.ssoSendCode, ssoApi.ssoAuthorize].flatMap((endpoint) => [
    { endpoint, status: 401, code: 'sso_rejected', key: 'sso:errors.rejected' },
    { endpoint, status: 401, code: 'code_expired', key: 'sso:errors.code_expired' },
    { endpoint, status: 401, code: 'invalid_code', key: 'sso:errors.invalid_code' },
    { endpoint, status: 401, key: 'sso:errors.expired' },
    { endpoint, status: 403, key: 'sso:errors.not_eligible' },
    { endpoint, status: 404, key: 'sso:errors.platform_missing' },
    { endpoint, status: 422, code: 'invalid_phone', key: 'sso:errors.no_phone' },
    { endpoint, status: 424, code: 'sso_unavailable', key: 'sso:errors.unavailable' },
    { endpoint, status: 424, key: 'sso:errors.mail_failed' },
    { endpoint, status: 429, code: 'code_cooldown', key: 'sso:errors.cooldown' },
    { endpoint, status: 429, key: 'sso:errors.too_many' },
  ]),
  { endpoint: authApi.ssoSignIn, status: 0, key: 'auth:sign_in_errors.network' },
  { endpoint: authApi.ssoSignIn, status: 401, key: 'sso:errors.expired' },
  { endpoint: authApi.ssoSignIn, status: 403, code: 'not_eligible', key: 'sso:errors.not_eligible' },
  { endpoint: authApi.ssoSignIn, status: 403, when: isIndividual, key: 'auth:sign_in_errors.403_individual' },
  { endpoint: authApi.ssoSignIn, status: 403, key: 'auth:sign_in_errors.403' },
  { endpoint: authApi.ssoSignIn, status: 423, key: 'auth:sign_in_errors.423' },
  { endpoint: authApi.ssoSignIn, status: 429, key: 'sso:errors.too_many' },
  { endpoint: ssoApi.ssoSignUp, status: 401, key: 'sso:errors.expired' },
  { endpoint: ssoApi.ssoSignUp, status: 402, key: 'signup:errors.member_limit' },
  { endpoint: ssoApi.ssoSignUp, status: 403, code: 'not_eligible', key: 'sso:errors.not_eligible' },
  { endpoint: ssoApi.ssoSignUp, status: 403, key: 'signup:errors.closed' },
  { endpoint: ssoApi.ssoSignUp, status: 409, code: 'value_already_used', key: 'signup:errors.value_already_used' },
  { endpoint: ssoApi.ssoSignUp, status: 409, key: 'signup:errors.already_registered' },
  ...(['invalid_email', 'invalid_name', 'invalid_member_group', 'invalid_signup_field', 'required_field_missing', 'invalid_field_value', 'policy_agreement_required'] as const).map(
    (code) => ({ endpoint: ssoApi.ssoSignUp, status: 422, code, key: `signup:errors.${code}` }),
  ),
  { endpoint: ssoApi.connectSsoAccount, status: 401, key: 'sso:errors.expired' },
  { endpoint: ssoApi.connectSsoAccount, status: 409, key: 'sso:errors.in_use' },
  { endpoint: ssoApi.disconnectSsoAccount, status: 422, key: 'sso:errors.password_required' },
  // Admin: a provider or directory address the server may not connect to (outbound guard).
  ...[adminSsoPlatformsApi.createSsoPlatform, adminSsoPlatformsApi.updateSsoPlatform].map((endpoint) => ({
    endpoint,
    status: 422,
    code: 'destination_refused',
    key: 'sso:admin.destination_refused',
  })),

  // Invitations (spec §5, §8): "invitation not found", wrong temporary passwords.
  { endpoint: invitationsApi.verifyInvitation, status: 404, key: 'account:invitation.not_found' },
  { endpoint: invitationsApi.verifyInvitation, status: 400, key: 'account:invitation.not_found' },
  { endpoint: invitationsApi.verifyInvitation, key: 'account:invitation.load_failed' },
  { endpoint: invitationsApi.acceptInvitation, status: 0, key: 'auth:sign_in_errors.network' },
  { endpoint: invitationsApi.acceptInvitation, status: 401, key: 'account:invitation.wrong_temporary' },
  { endpoint: invitationsApi.acceptInvitation, status: 404, key: 'account:invitation.not_found' },
  { endpoint: invitationsApi.acceptInvitation, status: 402, key: 'signup:errors.member_limit' },
  { endpoint: invitationsApi.acceptInvitation, status: 409, key: 'signup:errors.already_registered' },
  { endpoint: invitationsApi.acceptInvitation, status: 422, code: 'invalid_email', key: 'account:invitation.email_mismatch' },
  { endpoint: invitationsApi.acceptInvitation, status: 422, code: 'common_password', key: 'common:validation.password_common' },
  ...(['invalid_password', 'invalid_name', 'invalid_member_group', 'policy_agreement_required'] as const).map((code) => ({
    endpoint: invitationsApi.acceptInvitation,
    status: 422,
    code,
    key: `signup:errors.${code}`,
  })),
  { endpoint: invitationsApi.acceptInvitation, status: 429, key: 'account:invitation.too_many' },

  // Tenant membership (spec §8): 401 get_tenant_membership_data_401.
  { endpoint: tenantMembershipApi.getTenantMembership, status: 401, key: 'account:workspace.error_401' },
  { endpoint: tenantMembershipApi.getTenantMembership, key: 'account:workspace.error' },

  // Admin restricted words: spec §5 "a restricted word that already exists is refused".
  { endpoint: adminSecurityApi.createRestrictedWord, status: 409, key: 'security:words.duplicate' },
  { endpoint: adminLlmModelsApi.setModelGroupPermission, status: 422, key: 'models:errors.model_locked' },
  // Chatbot approve (spec §8): 404, 422.
  // Spec §8 "Dashboard cards 403".
  { endpoint: adminDashboardsApi.getDashboard, status: 403, key: 'adminDashboard:errors.cards_403' },
  { endpoint: adminCreditsApi.updateCreditAllocation, status: 422, code: 'default_group_locked', key: 'adminCredits:errors.default_group_locked' },
  { endpoint: adminChatbotsApi.processPublishRequest, status: 404, key: 'publishing:errors.not_found' },
  { endpoint: adminChatbotsApi.processPublishRequest, status: 422, key: 'publishing:errors.reason_required' },
  { endpoint: adminChatbotsApi.bulkProcessPublishRequests, status: 404, key: 'publishing:errors.not_found' },
  { endpoint: adminChatbotsApi.bulkProcessPublishRequests, status: 422, key: 'publishing:errors.reason_required' },

  // Admin members (spec §8 "Member patch: 400, 404, 500. Member delete: 404, 500"; member approve 402).
  ...[adminMembersApi.patchAdminMember, adminMembersApi.deleteAdminMember, adminMembersApi.bulkDeleteMembers].flatMap((endpoint) => [
    { endpoint, status: 422, code: 'own_account', key: 'adminMembers:errors.own_account' },
    { endpoint, status: 404, key: 'adminMembers:errors.not_found' },
  ]),
  { endpoint: adminMembersApi.patchAdminMember, status: 409, key: 'adminMembers:errors.value_taken' },
  { endpoint: adminMembersApi.patchAdminMember, status: 422, key: 'adminMembers:errors.invalid' },
  ...[adminMemberRequestsApi.processPendingRequest, adminMemberRequestsApi.bulkProcessPendingRequests].flatMap((endpoint) => [
    { endpoint, status: 402, key: 'adminMembers:errors.member_limit' },
    { endpoint, status: 404, key: 'adminMembers:errors.request_gone' },
    { endpoint, status: 422, key: 'adminMembers:errors.reason_required' },
  ]),

  // Tenant settings (ARCHITECTURE "Tenant settings"): uploads have the chat files' statuses; a field
  // change refused because of stored values names the field and the value (details).
  { endpoint: adminTenantSettingsApi.uploadTenantLogo, status: 413, key: 'tenantSettings:branding.logo_too_large' },
  { endpoint: adminTenantSettingsApi.uploadTenantLogo, status: 415, key: 'tenantSettings:branding.logo_type' },
  { endpoint: adminTenantSettingsApi.uploadTenantLogo, key: 'tenantSettings:branding.logo_failed' },
  { endpoint: adminTenantSettingsApi.updateTenantSettings, status: 400, key: 'tenantSettings:branding.save_invalid' },
  { endpoint: adminTenantSettingsApi.updateTenantSettings, key: 'tenantSettings:branding.save_failed' },
  { endpoint: adminCustomFieldsApi.createCustomField, status: 409, key: 'tenantSettings:fields.name_taken' },
  { endpoint: adminCustomFieldsApi.createCustomField, status: 422, key: 'tenantSettings:fields.too_many' },
  { endpoint: adminCustomFieldsApi.updateCustomField, status: 409, code: 'field_name_taken', key: 'tenantSettings:fields.name_taken' },
  { endpoint: adminCustomFieldsApi.updateCustomField, status: 422, code: 'field_name_required', key: 'tenantSettings:validation.one_name' },
  { endpoint: adminCustomFieldsApi.updateCustomField, status: 409, code: 'values_not_unique', key: 'tenantSettings:fields.values_not_unique' },
  { endpoint: adminCustomFieldsApi.updateCustomField, status: 409, code: 'values_not_numbers', key: 'tenantSettings:fields.values_not_numbers' },
  { endpoint: adminCustomFieldsApi.updateCustomField, status: 404, key: 'tenantSettings:fields.not_found' },
  { endpoint: adminCustomFieldsApi.deleteCustomField, status: 404, key: 'tenantSettings:fields.not_found' },
  ...[adminTaskModesApi.createTaskMode, adminTaskModesApi.updateTaskMode].flatMap((endpoint) => [
    { endpoint, status: 409, code: 'task_mode_name_taken', key: 'tenantSettings:modes.name_taken' },
    { endpoint, status: 422, code: 'task_mode_name_required', key: 'tenantSettings:validation.one_name' },
    { endpoint, status: 422, key: 'tenantSettings:modes.too_many' },
    { endpoint, status: 404, key: 'tenantSettings:modes.not_found' },
  ]),
  { endpoint: adminTaskModesApi.deleteTaskMode, status: 404, key: 'tenantSettings:modes.not_found' },
  { endpoint: adminPoliciesApi.uploadPolicyFile, status: 413, key: 'tenantSettings:policies.file_too_large' },
  { endpoint: adminPoliciesApi.uploadPolicyFile, status: 415, key: 'tenantSettings:policies.file_type' },
  { endpoint: adminPoliciesApi.uploadPolicyFile, key: 'files:errors.upload_failed' },
  { endpoint: adminPoliciesApi.createPolicy, status: 422, key: 'tenantSettings:policies.content_missing' },
  { endpoint: adminPoliciesApi.createPolicy, status: 400, key: 'tenantSettings:policies.invalid' },
  { endpoint: adminPoliciesApi.updatePolicy, status: 422, key: 'tenantSettings:policies.content_missing' },
  { endpoint: adminPoliciesApi.updatePolicy, status: 400, key: 'tenantSettings:policies.invalid' },
  { endpoint: adminPoliciesApi.updatePolicy, status: 404, key: 'tenantSettings:policies.not_found' },
  { endpoint: adminPoliciesApi.deletePolicy, status: 404, key: 'tenantSettings:policies.not_found' },
  // My page custom fields: the sign-up reasons and messages (spec §5, §8), and one of ours.
  { endpoint: membersApi.patchMember, status: 409, code: 'value_already_used', key: 'signup:errors.value_already_used' },
  { endpoint: membersApi.patchMember, status: 422, code: 'required_field_missing', key: 'signup:errors.required_field_missing' },
  { endpoint: membersApi.patchMember, status: 422, code: 'invalid_field_value', key: 'signup:errors.invalid_field_value' },
  { endpoint: membersApi.patchMember, status: 422, code: 'field_not_editable', key: 'account:custom_fields.not_editable' },
  // Plans and payments: a declined card, an answer the provider did not confirm, the provider unreachable.
  ...[billingApi.registerCardAndSubscribe, billingApi.subscribeToPlan].flatMap((endpoint) => [
    { endpoint, status: 402, key: 'billing:errors.card_declined' },
    { endpoint, status: 400, key: 'billing:errors.invalid_card' },
    { endpoint, status: 403, key: 'billing:errors.admin_only' },
    { endpoint, status: 409, code: 'payment_in_progress', key: 'billing:errors.payment_in_progress' },
    { endpoint, status: 409, key: 'billing:errors.already_subscribed' },
    { endpoint, status: 422, key: 'billing:errors.payment_method_required' },
    { endpoint, status: 502, key: 'billing:errors.provider_unavailable' },
  ]),
  { endpoint: billingApi.cancelMembership, status: 409, key: 'billing:errors.already_cancelled' },
  { endpoint: billingApi.resumeMembership, status: 409, key: 'billing:errors.not_cancelled' },
  { endpoint: billingApi.cancelMembership, status: 404, key: 'billing:errors.no_membership' },
  { endpoint: billingApi.resumeMembership, status: 404, key: 'billing:errors.no_membership' },
  // Member bulk upload (docs/ARCHITECTURE.md "Member export and bulk upload").
  { endpoint: adminMemberTransferApi.uploadMembers, status: 422, code: 'missing_column', key: 'memberTransfer:upload.errors.missing_column' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 422, code: 'excluded_column', key: 'memberTransfer:upload.errors.excluded_column' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 422, code: 'unknown_column', key: 'memberTransfer:upload.errors.unknown_column' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 422, code: 'duplicate_column', key: 'memberTransfer:upload.errors.duplicate_column' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 422, code: 'empty_file', key: 'memberTransfer:upload.errors.empty_file' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 422, code: 'too_many_rows', key: 'memberTransfer:upload.errors.too_many_rows' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 413, key: 'memberTransfer:upload.errors.file_too_large' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 415, key: 'memberTransfer:upload.errors.unsupported_file_type' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 400, key: 'memberTransfer:upload.errors.file_corrupted' },
  { endpoint: adminMemberTransferApi.uploadMembers, status: 403, key: 'errors:status_403' },
  { endpoint: adminMemberTransferApi.uploadMembers, key: 'memberTransfer:upload.errors.failed' },

  // Developers: a chosen chatbot the member no longer sees; a key revoked meanwhile (another tab).
  { endpoint: apiKeysApi.createApiKey, status: 404, key: 'developers:errors.chatbot_not_found' },
  { endpoint: apiKeysApi.updateApiKey, status: 404, key: 'developers:errors.chatbot_not_found' },
  { endpoint: apiKeysApi.updateApiKey, status: 409, key: 'developers:errors.revoked' },
  { endpoint: apiKeysApi.updateApiKey, status: 422, code: 'api_key_expired', key: 'developers:errors.expired' },
  // Admin member groups (spec §6 "sign out and retry", §8 "Group patch", "Group delete").
  ...[adminMemberGroupsApi.createMemberGroup, adminMemberGroupsApi.patchMemberGroup].flatMap((endpoint) => [
    { endpoint, status: 403, key: 'adminGroups:errors.no_permission' },
    { endpoint, status: 409, key: 'adminGroups:errors.name_in_use' },
    { endpoint, status: 422, code: 'group_name_required', key: 'adminGroups:validation.one_name' },
    { endpoint, status: 422, key: 'adminGroups:errors.default_locked' },
    { endpoint, status: 400, key: 'adminGroups:errors.invalid' },
    { endpoint, status: 404, key: 'adminGroups:errors.not_found' },
    { endpoint, status: 500, key: 'adminGroups:errors.save_failed' },
  ]),
  { endpoint: adminMemberGroupsApi.deleteMemberGroup, status: 404, key: 'adminGroups:errors.not_found' },
  { endpoint: adminMemberGroupsApi.deleteMemberGroup, status: 422, key: 'adminGroups:errors.default_undeletable' },
  { endpoint: adminMemberGroupsApi.deleteMemberGroup, key: 'adminGroups:errors.delete_failed' },
  { endpoint: adminMemberGroupsApi.removeMemberGroupMember, status: 404, key: 'adminGroups:errors.member_not_found' },
  { endpoint: adminMemberGroupsApi.removeMemberGroupMember, status: 422, key: 'adminGroups:errors.default_member' },
  // Admin invitations: the plan's cap (402), SSO members cannot invite (403), gone (404).
  { endpoint: adminInvitationsApi.bulkInvite, status: 402, key: 'adminInvitations:errors.limit' },
  { endpoint: adminInvitationsApi.bulkInvite, status: 403, key: 'adminInvitations:errors.sso_member' },
  { endpoint: adminInvitationsApi.bulkInvite, status: 400, key: 'adminInvitations:errors.invalid' },
  { endpoint: adminInvitationsApi.bulkDeleteInvitations, status: 404, key: 'adminInvitations:errors.not_found' },
  // SSO whitelist.
  { endpoint: adminSsoWhitelistApi.bulkDeleteSsoWhitelist, status: 404, key: 'ssoWhitelist:errors.not_found' },
  { endpoint: adminSsoWhitelistApi.bulkUpsertSsoWhitelist, status: 400, key: 'ssoWhitelist:errors.invalid' },
];

addErrorMessages(ERROR_CATALOG);

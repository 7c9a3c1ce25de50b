import { z } from 'zod';
import { defineEndpoint, type ErrorDeclaration } from './endpoint';
import { customFieldInputSchema, fieldNamesSchema } from './members';
import { idParamsSchema, idSchema, isoDateTime, languageSchema, queryBoolean } from './common';
import { EMAIL_MAX_EXCLUSIVE } from '../domain/account';
import { NAME_MAX, SIGNUP_APPROVALS, SIGNUP_OUTCOMES, VERIFICATION_CODE_LENGTH, VERIFICATION_METHODS } from '../domain/signup';

/** The tenant settings that shape the sign-up page (admin-editable later; seeded for the demo). */
export const signupSettingsSchema = z.object({
  /** Normal sign-up works only when open and not SSO-only; otherwise the page says so instead of the form. */
  signup_open: z.boolean(),
  sso_only: z.boolean(),
  /** SSO is for the members on the SSO whitelist only; others get 403 not eligible. */
  sso_whitelist_only: z.boolean(),
  /** My page group changes wait for an administrator; false applies them at once. */
  group_change_approval: z.boolean(),
  approval: z.enum(SIGNUP_APPROVALS),
  verification_methods: z.array(z.enum(VERIFICATION_METHODS)),
});
export type SignupSettings = z.infer<typeof signupSettingsSchema>;

export const getSignupSettings = defineEndpoint({
  method: 'GET',
  path: '/tenants/sign-up-settings/',
  access: 'public',
  errors: {},
  response: signupSettingsSchema,
  summary: 'Whether normal sign-up is open, who approves it, and the verification methods',
  tags: ['tenants'],
});

export const memberCountCheckSchema = z.object({
  member_count: z.number().int(),
  /** Null: the plan sets no limit. */
  member_limit: z.number().int().nullable(),
  /** False: sign-up answers 402 (the plan's member limit is reached). */
  can_add_member: z.boolean(),
});

export const memberCountCheck = defineEndpoint({
  method: 'GET',
  path: '/tenants/member-count-check/',
  access: 'public',
  errors: {},
  response: memberCountCheckSchema,
  summary: "Members counted against the plan's member limit",
  tags: ['tenants'],
});

export const customFieldSchema = fieldNamesSchema.extend({
  id: z.number().int(),
  field_type: z.enum(['text', 'number']),
  is_signup_field: z.boolean(),
  is_searchable: z.boolean(),
  is_required: z.boolean(),
  is_editable: z.boolean(),
  is_unique: z.boolean(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const listCustomFields = defineEndpoint({
  method: 'GET',
  path: '/custom-fields/',
  access: 'public',
  errors: {},
  query: z.object({
    is_signup_field: queryBoolean.optional(),
    language: languageSchema.optional().describe('the language `field_name` is given in (default: the signed-in member’s, else English)'),
  }),
  response: z.object({ items: z.array(customFieldSchema) }),
  summary: 'The sign-up custom fields of the tenant (public callers only ever get sign-up fields)',
  tags: ['custom-fields'],
});

export const policySchema = z.object({
  id: z.number().int(),
  policy_name: z.string(),
  kind: z.enum(['markdown', 'video', 'file']),
  is_mandatory: z.boolean(),
  markdown_content: z.string().nullable(),
  video_url: z.string().nullable(),
  /** Path of the policy's file (public, like the policy), for kind `file`. */
  file_url: z.string().nullable(),
});
export type Policy = z.infer<typeof policySchema>;

export const listPolicies = defineEndpoint({
  method: 'GET',
  path: '/policies/',
  access: 'public',
  errors: {},
  response: z.object({ items: z.array(policySchema) }),
  summary: 'Policies a new member agrees to (mandatory ones must be agreed to)',
  tags: ['policies'],
});

/** Public like the policy itself: a visitor reads it before signing up. */
export const getPolicyFile = defineEndpoint({
  method: 'GET',
  path: '/policies/:id/file/',
  access: 'public',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: z.any().describe('the policy document’s bytes'),
  summary: 'Download the document of a file policy',
  tags: ['policies'],
});

const emailSchema = z
  .string()
  .trim()
  .min(1)
  .max(EMAIL_MAX_EXCLUSIVE - 1);

export const sendCodeBodySchema = z.object({
  email: emailSchema,
  language: languageSchema,
  /** One of the tenant's `verification_methods`; the code always belongs to the email. */
  method: z.enum(VERIFICATION_METHODS).default('email'),
  /** Required for `sms`: international format, e.g. +821012345678. */
  phone: z.string().trim().max(32).optional(),
});

export const sendCodeResponseSchema = z.object({
  expires_at: isoDateTime,
  /** When a new code may be asked for (the resend countdown). */
  resend_available_at: isoDateTime,
});

export const sendCode = defineEndpoint({
  method: 'POST',
  path: '/auth/code/',
  access: 'public',
  errors: {
    400: ['invalid_email'],
    403: ['signup_closed'],
    409: ['already_registered'],
    422: ['invalid_phone', 'validation_error'],
    424: ['mail_failed', 'sms_failed'],
    429: ['code_cooldown'],
  },
  body: sendCodeBodySchema,
  response: sendCodeResponseSchema,
  summary:
    'Send a sign-up verification code by email or SMS (400 `invalid_email`, 409 registered, 422 input data error: `invalid_phone`, a method not offered; 424 delivery problem, 429 cooldown)',
  tags: ['auth'],
});

/** Spec §3 sign-up payload; `member_type` and `sso_user_type` exist so a wrong one gets its reason. */
export const signUpBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
  name: z.string().max(NAME_MAX * 2),
  language: languageSchema,
  custom_fields: z.array(customFieldInputSchema).max(100).default([]),
  auth_code: z
    .string()
    .trim()
    .min(1)
    .max(VERIFICATION_CODE_LENGTH * 2),
  default_member_group_id: idSchema,
  member_group_ids: z.array(idSchema).max(100).default([]),
  /** Ids of the policies agreed to. */
  agreements: z.array(idSchema).max(100).default([]),
  member_type: z.enum(['organization', 'individual']).optional(),
  sso_user_type: z.string().max(100).optional(),
});
export type SignUpBody = z.input<typeof signUpBodySchema>;

/**
 * No tokens: when the account is usable at once (`approved`, `registered`) the client signs in with
 * the credentials just typed, through the one sign-in path web and desktop already have.
 */
export const signUpResponseSchema = z.object({
  outcome: z.enum(SIGNUP_OUTCOMES),
  member_id: z.number().int(),
});

/** The refusals of a new member's account, whether they sign up or accept an invitation. */
export const NEW_MEMBER_ERRORS = {
  402: ['member_limit_reached'],
  409: ['already_registered', 'value_already_used'],
  422: [
    'common_password',
    'invalid_email',
    'invalid_field_value',
    'invalid_member_group',
    'invalid_name',
    'invalid_password',
    'invalid_signup_field',
    'policy_agreement_required',
    'required_field_missing',
    'validation_error',
  ],
} as const satisfies ErrorDeclaration;

export const signUp = defineEndpoint({
  method: 'POST',
  path: '/auth/sign-up/',
  access: 'public',
  errors: {
    401: ['code_expired', 'invalid_code'],
    ...NEW_MEMBER_ERRORS,
    403: ['signup_closed'],
    422: [...NEW_MEMBER_ERRORS[422], 'invalid_member_type', 'invalid_sso_user_type'],
  },
  body: signUpBodySchema,
  response: signUpResponseSchema,
  summary: 'Create an account with a verification code; the tenant decides pending, approved or registered',
  tags: ['auth'],
});

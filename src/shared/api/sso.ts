import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, idSchema, isoDateTime, languageSchema } from './common';
import { customFieldInputSchema, memberSchema } from './members';
import { signUpResponseSchema } from './signup';
import { NAME_MAX, VERIFICATION_CODE_LENGTH, VERIFICATION_METHODS } from '../domain/signup';

// The platform list is on the sign-in page, so it has a module of its own (first-screen bundle);
// the SSO sign-in is in ./auth with the other endpoints that answer with tokens.
export { listSsoPlatforms, ssoPlatformSchema, type SsoPlatform } from './ssoPlatforms';

const redirectUrlSchema = z.string().url().max(2000);

/**
 * OpenID Connect: the client keeps the PKCE verifier and the state (sessionStorage on the web, main's
 * memory on desktop) and sends only the challenge, so the code is useless to anyone who lacks them.
 */
export const ssoAuthorizeBodySchema = z.object({
  redirect_url: redirectUrlSchema,
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  state: z.string().min(16).max(200),
});

export const ssoAuthorize = defineEndpoint({
  method: 'POST',
  path: '/sso-platforms/:id/authorize/',
  access: 'public',
  errors: { 401: ['sso_rejected'], 404: ['not_found'], 422: ['validation_error'], 424: ['sso_unavailable'] },
  params: idParamsSchema,
  body: ssoAuthorizeBodySchema,
  response: z.object({ authorization_url: z.string() }),
  summary: "The OpenID Connect provider's authorization URL for this sign-in (PKCE S256)",
  tags: ['sso'],
});

/** Directory, first step (spec §7): the directory checks the user ID and password, then a code is sent. */
export const ssoCredentialsSchema = z.strictObject({
  user_id: z.string().trim().min(1).max(256),
  user_pw: z.string().min(1).max(1024),
  method: z.enum(VERIFICATION_METHODS),
  language: languageSchema.default('en'),
});
/** Directory, second step: the code that reached the user. */
export const ssoCodeSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1)
    .max(VERIFICATION_CODE_LENGTH * 2),
  verification_id: idSchema,
  auth_token: z.string().min(1).max(4000),
});
/** OpenID Connect: the authorization code the provider redirected back with. */
export const ssoOidcCallbackSchema = z.strictObject({
  code: z.string().min(1).max(4000),
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
  state: z.string().min(16).max(200),
  /** The provider's `iss` response parameter (RFC 9207), when it sent one. */
  iss: z.string().max(500).optional(),
  redirect_url: redirectUrlSchema,
});

export const ssoVerifyBodySchema = z.union([ssoCredentialsSchema, ssoCodeSchema, ssoOidcCallbackSchema]);

export const ssoCodeSentSchema = z.object({
  step: z.literal('code_sent'),
  verification_id: z.number().int(),
  /** Binds the second step to the directory user of the first (signed; not a session token). */
  auth_token: z.string(),
  method: z.enum(VERIFICATION_METHODS),
  /** Where the code went, masked (j***@example.com, +82******5678). */
  destination: z.string(),
  expires_at: isoDateTime,
  resend_available_at: isoDateTime,
});

/** The identity the platform vouched for, usable for SSO_IDENTITY_TTL_MINUTES to sign in, sign up or connect. */
export const ssoVerifiedSchema = z.object({
  step: z.literal('verified'),
  sso_access_token: z.string(),
  email: z.string(),
  name: z.string(),
  /** An account of this tenant is connected to this identity: sign in; otherwise sign up or connect. */
  registered: z.boolean(),
});
export type SsoVerified = z.infer<typeof ssoVerifiedSchema>;

export const ssoVerify = defineEndpoint({
  method: 'POST',
  path: '/sso-platforms/:id/verify/',
  access: 'public',
  errors: {
    401: ['code_expired', 'invalid_code', 'sso_identity_expired', 'sso_rejected'],
    403: ['not_eligible'],
    404: ['not_found'],
    422: ['invalid_phone', 'validation_error'],
    424: ['mail_failed', 'sms_failed', 'sso_unavailable'],
    429: ['code_cooldown'],
  },
  params: idParamsSchema,
  body: ssoVerifyBodySchema,
  response: z.discriminatedUnion('step', [ssoCodeSentSchema, ssoVerifiedSchema]),
  summary: 'Directory: user ID and password, then the code; OpenID Connect: the authorization code',
  tags: ['sso'],
});

export const ssoSendCode = defineEndpoint({
  method: 'POST',
  path: '/sso-platforms/:id/send-code/',
  access: 'public',
  errors: {
    401: ['sso_identity_expired'],
    404: ['not_found'],
    422: ['invalid_phone', 'validation_error'],
    424: ['mail_failed', 'sms_failed'],
    429: ['code_cooldown'],
  },
  params: idParamsSchema,
  body: z.strictObject({
    method: z.enum(VERIFICATION_METHODS),
    user_id: z.string().trim().min(1).max(256),
    verification_id: idSchema,
    auth_token: z.string().min(1).max(4000),
    language: languageSchema.default('en'),
  }),
  response: ssoCodeSentSchema,
  summary: 'Send the directory verification code again (after the cooldown), by email or SMS',
  tags: ['sso'],
});

export const ssoSignUpBodySchema = z.object({
  sso_access_token: z.string().min(1).max(4000),
  sso_platform_id: idSchema,
  redirect_url: z.string().max(2000).optional(),
  name: z.string().max(NAME_MAX * 2),
  language: languageSchema,
  custom_fields: z.array(customFieldInputSchema).max(100).default([]),
  default_member_group_id: idSchema,
  member_group_ids: z.array(idSchema).max(100).default([]),
  agreements: z.array(idSchema).max(100).default([]),
});
export type SsoSignUpBody = z.input<typeof ssoSignUpBodySchema>;

export const ssoSignUp = defineEndpoint({
  method: 'POST',
  path: '/auth/sso-sign-up/',
  access: 'public',
  errors: {
    401: ['sso_identity_expired'],
    402: ['member_limit_reached'],
    403: ['not_eligible', 'signup_closed'],
    404: ['not_found'],
    409: ['already_registered', 'value_already_used'],
    422: [
      'invalid_email',
      'invalid_field_value',
      'invalid_member_group',
      'invalid_name',
      'invalid_signup_field',
      'policy_agreement_required',
      'required_field_missing',
      'validation_error',
    ],
  },
  body: ssoSignUpBodySchema,
  response: signUpResponseSchema,
  summary: 'Create an account for a verified SSO identity; the client then signs in with the same identity',
  tags: ['auth'],
});

export const connectSsoAccount = defineEndpoint({
  method: 'PUT',
  path: '/members/:id/sso-account/',
  access: 'member',
  errors: { 401: ['sso_identity_expired'], 403: ['forbidden'], 404: ['not_found'], 409: ['sso_account_in_use'] },
  params: idParamsSchema,
  body: z.object({ sso_access_token: z.string().min(1).max(4000), sso_platform_id: idSchema }),
  response: memberSchema,
  summary: 'Connect a verified SSO identity to oneself for one-click sign-in',
  tags: ['members'],
});

export const disconnectSsoAccount = defineEndpoint({
  method: 'DELETE',
  path: '/members/:id/sso-account/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'], 422: ['sso_password_required'] },
  params: idParamsSchema,
  response: memberSchema,
  summary: 'Disconnect the SSO account (refused when the member has no password to sign in with)',
  tags: ['members'],
});

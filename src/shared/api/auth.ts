import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idSchema, okSchema } from './common';
import { memberSchema } from './members';

export const signInBodySchema = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(1024),
});

/**
 * The web client gets the refresh token as an HttpOnly cookie only; a desktop client (header
 * x-client-kind: desktop) gets it in the body so main can keep it in the OS keychain.
 */
export const authTokensSchema = z.object({
  access_token: z.string(),
  access_token_expires_at: z.string(),
  refresh_token: z.string().optional(),
  member: memberSchema,
});
export type AuthTokens = z.infer<typeof authTokensSchema>;

export const refreshBodySchema = z.object({
  redirect_url: z.string().optional(),
  /** Desktop only: the web client sends the cookie instead. */
  refresh_token: z.string().optional(),
});

export const signOutBodySchema = z.object({ refresh_token: z.string().optional() });

export const signIn = defineEndpoint({
  method: 'POST',
  path: '/auth/sign-in/',
  access: 'public',
  errors: { 401: ['invalid_credentials'], 403: ['account_deactivated', 'not_approved', 'sso_only'], 422: ['validation_error'], 423: ['not_eligible'] },
  body: signInBodySchema,
  response: authTokensSchema,
  carriesTokens: true,
  summary: 'Sign in with email and password',
  tags: ['auth'],
});

export const refresh = defineEndpoint({
  method: 'POST',
  path: '/auth/refresh/',
  access: 'public',
  errors: { 401: ['session_expired'], 403: ['account_deactivated'] },
  body: refreshBodySchema,
  response: authTokensSchema,
  carriesTokens: true,
  summary: 'Rotate the refresh token and issue a new access token',
  tags: ['auth'],
});

export const signOut = defineEndpoint({
  method: 'POST',
  path: '/auth/sign-out/',
  access: 'public',
  errors: {},
  body: signOutBodySchema,
  response: okSchema,
  carriesTokens: true,
  summary: 'Revoke the refresh token family and clear the cookie',
  tags: ['auth'],
});

export const ssoSignInBodySchema = z.object({
  /** The `sso_access_token` of a verified identity. */
  code: z.string().min(1).max(4000),
  sso_platform_id: idSchema,
  redirect_url: z.string().max(2000).optional(),
});

export const ssoSignIn = defineEndpoint({
  method: 'POST',
  path: '/auth/sso-sign-in/',
  access: 'public',
  errors: {
    401: ['sso_identity_expired'],
    403: ['account_deactivated', 'not_approved', 'not_eligible'],
    404: ['not_found', 'sso_account_not_found'],
    423: ['not_eligible'],
  },
  body: ssoSignInBodySchema,
  response: authTokensSchema,
  carriesTokens: true,
  summary: 'Sign in with a verified SSO identity (404 sso_account_not_found: sign up or connect first)',
  tags: ['auth'],
});

import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { languageSchema, okSchema } from './common';

/**
 * Forgot password (spec §8 "Reset password"): every well-formed email gets the same 200, whether an
 * account exists or not, so the answer cannot be used to find accounts. `language` (the screen's) is
 * accepted but the mail is written in the member's stored language.
 */
export const resetPasswordBodySchema = z.object({
  email: z.string().max(254),
  language: languageSchema.optional(),
});

/** The token from the mailed link and the new password (spec §5 rule: 8+ with letters, numbers and special characters). */
export const confirmPasswordResetBodySchema = z.object({
  token: z.string().min(1).max(200),
  new_password: z.string().max(1024),
});

export const changePasswordBodySchema = z.object({
  password: z.string().max(1024),
  new_password: z.string().max(1024),
});

export const resetPassword = defineEndpoint({
  method: 'POST',
  path: '/auth/reset-password/',
  access: 'public',
  errors: { 422: ['validation_error'], 424: ['mail_failed'] },
  body: resetPasswordBodySchema,
  response: okSchema,
  summary: 'Mail a single-use link to choose a new password',
  tags: ['auth'],
});

export const confirmPasswordReset = defineEndpoint({
  method: 'POST',
  path: '/auth/reset-password/confirm/',
  access: 'public',
  errors: { 400: ['reset_link_expired', 'reset_link_invalid'], 422: ['common_password', 'validation_error'] },
  body: confirmPasswordResetBodySchema,
  response: okSchema,
  summary: 'Set a new password with the mailed token; every session of the member ends (sign in again)',
  tags: ['auth'],
});

export const changePassword = defineEndpoint({
  method: 'POST',
  path: '/auth/change-password/',
  access: 'member',
  errors: { 400: ['wrong_password'], 422: ['common_password', 'validation_error'] },
  body: changePasswordBodySchema,
  response: okSchema,
  summary: 'Change the own password; the other sessions of the member end',
  tags: ['auth'],
});

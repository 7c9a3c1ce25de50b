import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { SIGNUP_APPROVALS, VERIFICATION_METHODS } from '../../domain/signup';
import { signupSettingsSchema } from '../signup';

export const updateSignupSettingsBodySchema = z
  .object({
    signup_open: z.boolean().optional(),
    sso_only: z.boolean().optional(),
    sso_whitelist_only: z.boolean().optional(),
    group_change_approval: z.boolean().optional(),
    approval: z.enum(SIGNUP_APPROVALS).optional(),
    /** At least one: a tenant that sends no code could not let anyone sign up. */
    verification_methods: z
      .array(z.enum(VERIFICATION_METHODS))
      .min(1)
      .refine((methods) => new Set(methods).size === methods.length, { message: 'Each method once.' })
      .optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' });

/** The tenant settings that drive sign-up (the admin screen for them is still to come). */
export const updateSignupSettings = defineEndpoint({
  method: 'PATCH',
  path: '/admin/sign-up-settings/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  body: updateSignupSettingsBodySchema,
  response: signupSettingsSchema,
  summary: 'Change who approves sign-ups, whether sign-up is open, and the verification methods',
  tags: ['admin'],
});

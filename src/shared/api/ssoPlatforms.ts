import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { VERIFICATION_METHODS } from '../domain/signup';
import { SSO_PLATFORM_KINDS } from '../domain/sso';

/** What a signed-out visitor may know of a platform: enough to draw its button or its user-ID form. */
export const ssoPlatformSchema = z.object({
  id: z.number().int(),
  sso_platform_name: z.string(),
  kind: z.enum(SSO_PLATFORM_KINDS),
  /** Directory platforms: how the second-step code can travel (sms only when the directory holds phones). */
  verification_methods: z.array(z.enum(VERIFICATION_METHODS)),
});
export type SsoPlatform = z.infer<typeof ssoPlatformSchema>;

export const listSsoPlatforms = defineEndpoint({
  method: 'GET',
  path: '/sso-platforms/',
  access: 'public',
  errors: {},
  response: z.object({
    items: z.array(ssoPlatformSchema),
    /** Members sign in through SSO only: the sign-in page leads with it (administrators keep the email form). */
    sso_only: z.boolean(),
  }),
  summary: "The tenant's SSO platforms (empty: no SSO platforms available) and whether sign-in is SSO-only",
  tags: ['sso'],
});

import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, okSchema } from '../common';

const text = (max: number) => z.string().trim().max(max);
const ldapUrl = z
  .string()
  .trim()
  .regex(/^ldaps?:\/\/[^\s/]+\/?$/, 'An ldap:// or ldaps:// URL');

/**
 * A platform's settings as the admin edits them. Secrets are write-only: answers carry an empty
 * secret and `has_secret`; an empty secret in an update keeps the stored one.
 */
export const oidcSettingsSchema = z.object({
  kind: z.literal('oidc'),
  issuer: z.string().trim().url().max(500),
  client_id: text(300).min(1),
  client_secret: text(1000),
});
export const directorySettingsSchema = z.object({
  kind: z.literal('directory'),
  url: ldapUrl,
  bind_dn: text(500),
  bind_password: text(1000),
  search_base: text(500).min(1),
  user_id_attribute: text(100).min(1).default('uid'),
  email_attribute: text(100).min(1).default('mail'),
  name_attribute: text(100).min(1).default('cn'),
  phone_attribute: text(100).default(''),
});
export const ssoPlatformSettingsSchema = z.discriminatedUnion('kind', [oidcSettingsSchema, directorySettingsSchema]);

export const adminSsoPlatformBodySchema = z.object({
  sso_platform_name: text(100).min(1),
  settings: ssoPlatformSettingsSchema,
});
export type AdminSsoPlatformBody = z.input<typeof adminSsoPlatformBodySchema>;

export const adminSsoPlatformSchema = z.object({
  id: z.number().int(),
  sso_platform_name: z.string(),
  settings: ssoPlatformSettingsSchema,
  has_secret: z.boolean(),
  /** Members connected to it (deleting the platform disconnects them). */
  member_count: z.number().int(),
});
export type AdminSsoPlatform = z.infer<typeof adminSsoPlatformSchema>;

export const listAdminSsoPlatforms = defineEndpoint({
  method: 'GET',
  path: '/admin/sso-platforms/',
  access: 'admin',
  errors: {},
  response: z.object({ items: z.array(adminSsoPlatformSchema) }),
  summary: "The tenant's SSO platforms with their settings (secrets masked)",
  tags: ['admin'],
});

export const createSsoPlatform = defineEndpoint({
  method: 'POST',
  path: '/admin/sso-platforms/',
  access: 'admin',
  errors: { 422: ['destination_refused', 'validation_error'] },
  body: adminSsoPlatformBodySchema,
  response: adminSsoPlatformSchema,
  summary: 'Add an OpenID Connect provider or a directory (422 destination_refused for an address the server may not connect to)',
  tags: ['admin'],
});

export const updateSsoPlatform = defineEndpoint({
  method: 'PUT',
  path: '/admin/sso-platforms/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['destination_refused', 'validation_error'] },
  params: idParamsSchema,
  body: adminSsoPlatformBodySchema,
  response: adminSsoPlatformSchema,
  summary: "Change a platform's name and settings (an empty secret keeps the stored one; 422 destination_refused as when adding)",
  tags: ['admin'],
});

export const deleteSsoPlatform = defineEndpoint({
  method: 'DELETE',
  path: '/admin/sso-platforms/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Remove a platform; its members keep their accounts but lose one-click sign-in',
  tags: ['admin'],
});

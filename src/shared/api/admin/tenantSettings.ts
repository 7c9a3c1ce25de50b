import { z } from 'zod';
import { TENANT_NAME_MAX, URL_MAX, isWebUrl } from '../../domain/tenantSettings';
import { EMAIL_MAX_EXCLUSIVE, PASSWORD_MIN, PASSWORD_MIN_LENGTH_MAX } from '../../domain/account';
import { idParamsSchema } from '../common';
import { defineEndpoint } from '../endpoint';

/** A tenant's minimum password length: spec §5's 8 up to PASSWORD_MIN_LENGTH_MAX. */
export const passwordMinLengthSchema = z.number().int().min(PASSWORD_MIN).max(PASSWORD_MIN_LENGTH_MAX);

/** Branding and support (the spec does not show these settings; docs/decisions/0045-tenant-settings.md). */
export const tenantSettingsSchema = z.object({
  tenant_name: z.string(),
  logo_url: z.string().nullable(),
  /** Where members' inquiries are mailed (the contact modal); the server's SUPPORT_EMAIL when null. */
  support_email: z.string().nullable(),
  /** The user manual the navigation's "Manual" item opens; hidden when null. */
  manual_url: z.string().nullable(),
  /** The shortest new password members may choose (8 by default, as spec §5 says; up to 64). */
  password_min_length: z.number().int(),
});
export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const updateTenantSettingsBodySchema = z
  .object({
    tenant_name: z.string().trim().min(1).max(TENANT_NAME_MAX),
    /** Null clears it. */
    support_email: z
      .email()
      .max(EMAIL_MAX_EXCLUSIVE - 1)
      .nullable(),
    /** Null clears it. */
    manual_url: z.string().trim().max(URL_MAX).refine(isWebUrl, { message: 'An http(s) URL' }).nullable(),
    /** Applies to new passwords only (sign-up, reset, change, invitation); members keep the ones they have. */
    password_min_length: passwordMinLengthSchema,
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' });

export const getTenantSettings = defineEndpoint({
  method: 'GET',
  path: '/admin/tenant-settings/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  response: tenantSettingsSchema,
  summary: 'The tenant name, logo, support address, manual link and minimum password length',
  tags: ['admin'],
});

export const updateTenantSettings = defineEndpoint({
  method: 'PATCH',
  path: '/admin/tenant-settings/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  body: updateTenantSettingsBodySchema,
  response: tenantSettingsSchema,
  summary: 'Change the tenant name, support address, manual link (null clears those two) or minimum password length (8 to 64; 400 validation_error outside)',
  tags: ['admin'],
});

export const uploadTenantLogo = defineEndpoint({
  method: 'POST',
  path: '/admin/tenant-settings/logo/',
  access: 'admin',
  errors: { 400: ['file_corrupted'], 404: ['not_found'], 413: ['file_too_large'], 415: ['unsupported_file_type'], 422: ['validation_error'] },
  response: tenantSettingsSchema,
  summary: 'Replace the logo (multipart, one `files` part like `POST /files/`: PNG, JPEG, GIF or WebP up to 1 MB); 413 too large, 415 other types',
  tags: ['admin'],
});

export const deleteTenantLogo = defineEndpoint({
  method: 'DELETE',
  path: '/admin/tenant-settings/logo/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  response: tenantSettingsSchema,
  summary: 'Remove the logo (the sign-in page then writes the name out)',
  tags: ['admin'],
});

/**
 * Public, though beside the admin settings: the sign-in page shows the logo before anyone is signed
 * in (an <img> sends no token). Kept out of `tenants.ts`, which the first screen loads.
 */
export const getTenantLogo = defineEndpoint({
  method: 'GET',
  path: '/tenants/logo/:id/',
  access: 'public',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: z.any().describe('the logo image’s bytes'),
  summary: 'The tenant’s uploaded logo (any other id answers 404)',
  tags: ['tenants'],
});

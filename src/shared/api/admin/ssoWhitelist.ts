import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idSchema, isoDateTime, pageQuerySchema, paginatedSchema } from '../common';
import { EMAIL_MAX_EXCLUSIVE } from '../../domain/account';
import { isWellFormedText } from '../../domain/text';
import { SSO_WHITELIST_BATCH, SSO_WHITELIST_DEFAULT_ORDER, SSO_WHITELIST_ORDERS, SSO_WHITELIST_PAGE_SIZE } from '../../domain/ssoWhitelist';

export const ssoWhitelistEntrySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  created_at: isoDateTime,
});
export type SsoWhitelistEntry = z.infer<typeof ssoWhitelistEntrySchema>;

export const ssoWhitelistListQuerySchema = pageQuerySchema(SSO_WHITELIST_PAGE_SIZE).extend({
  search_term: z.string().trim().max(200).optional(),
  order_by: z.enum(SSO_WHITELIST_ORDERS).default(SSO_WHITELIST_DEFAULT_ORDER),
});

export const listSsoWhitelist = defineEndpoint({
  method: 'GET',
  path: '/admin/sso-member-whitelist/',
  access: 'admin',
  errors: {},
  query: ssoWhitelistListQuerySchema,
  response: paginatedSchema(ssoWhitelistEntrySchema),
  summary: 'The emails allowed to use SSO when the tenant is whitelist-only (order_by default id.desc)',
  tags: ['admin'],
});

export const bulkUpsertSsoWhitelist = defineEndpoint({
  method: 'POST',
  path: '/admin/sso-member-whitelist/bulk-upsert/',
  access: 'admin',
  errors: {},
  body: z.object({
    sso_member_whitelist: z
      .array(
        z
          .string()
          .trim()
          .max(EMAIL_MAX_EXCLUSIVE * 2)
          .refine(isWellFormedText),
      )
      .min(1)
      .max(SSO_WHITELIST_BATCH),
  }),
  response: z.object({
    /** Emails new to the list. */
    added: z.number().int(),
    /** Emails the list held already. */
    existing: z.number().int(),
    /** What was sent that is not an email (nothing of the request is refused for them). */
    invalid: z.array(z.string()),
  }),
  summary: 'Add emails to the SSO whitelist (existing ones are kept; invalid ones are reported, not stored)',
  tags: ['admin'],
});

export const bulkDeleteSsoWhitelist = defineEndpoint({
  method: 'POST',
  path: '/admin/sso-member-whitelist/bulk-delete/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  body: z.object({ sso_member_whitelist_ids: z.array(idSchema).min(1).max(SSO_WHITELIST_BATCH) }),
  response: z.object({ deleted: z.number().int() }),
  summary: 'Remove emails from the SSO whitelist (404 when none of the ids is the tenant’s)',
  tags: ['admin'],
});

export const exportSsoWhitelist = defineEndpoint({
  method: 'GET',
  path: '/admin/sso-member-whitelist/export/',
  access: 'admin',
  errors: {},
  response: z.any().describe('text/csv: email,name,created_at'),
  summary: 'The whole whitelist as a CSV file',
  tags: ['admin'],
});

import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const tenantSchema = z.object({
  subdomain: z.string(),
  tenant_name: z.string(),
  logo_url: z.string().nullable(),
  /** The tenant's user manual (the navigation's "Manual" item); null hides the item. */
  manual_url: z.string().nullable().default(null),
  plan: z.object({ is_low_llm_free: z.boolean() }),
  /** What this server offers beyond the spec's fields: web search needs a configured search service. */
  features: z.object({ web_search: z.boolean() }).default({ web_search: false }),
  /** The shortest new password this tenant accepts (its admin may raise spec §5's 8): the password forms show and check it. */
  password_min_length: z.number().int().default(8),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const getTenant = defineEndpoint({
  method: 'GET',
  path: '/tenants/',
  access: 'public',
  errors: {},
  response: tenantSchema,
  summary: 'Branding and plan flags of the tenant named by x-subdomain',
  tags: ['tenants'],
});

import { asc, eq } from 'drizzle-orm';
import { listCategories } from '../../../shared/api/categories';
import { getChatbot, listChatbots } from '../../../shared/api/chatbots';
import { getTenant } from '../../../shared/api/tenants';
import { getTenantMembership } from '../../../shared/api/tenantMembership';
import { tenantMembership } from '../tenants/membership';
import { categories } from '../../db/schema';
import * as chatbots from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Tenant branding, categories and chatbots: what the dashboard loads first. */
export const catalogRoutes = domainRoutes('chatbots', (app, { db, sources }) => {
  const features = { webSearch: sources.webSearchAvailable };
  registerEndpoint(app, getTenant, async ({ tenant }) => ({
    subdomain: tenant.subdomain,
    tenant_name: tenant.name,
    logo_url: tenant.logoUrl,
    manual_url: tenant.manualUrl,
    plan: { is_low_llm_free: tenant.isLowLlmFree },
    features: { web_search: features.webSearch },
    password_min_length: tenant.passwordMinLength,
  }));

  registerEndpoint(app, getTenantMembership, async ({ tenant }) => tenantMembership(db, tenant));

  registerEndpoint(app, listCategories, async ({ tenant }) => ({
    items: await db
      .select({ id: categories.id, en_name: categories.enName, ko_name: categories.koName })
      .from(categories)
      .where(eq(categories.tenantId, tenant.id))
      .orderBy(asc(categories.sortOrder), asc(categories.id)),
  }));

  registerEndpoint(app, listChatbots, async ({ query, requireMember }) => chatbots.listChatbots(db, requireMember(), query));
  registerEndpoint(app, getChatbot, async ({ params, requireMember }) => chatbots.getChatbot(db, requireMember(), params.id));
});

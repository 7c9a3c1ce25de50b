import type { ServerConfig } from '../config';
import type { TenantRow } from '../db/rows';

/** Where mailed links point: the web app's origin, and the tenant it uses without a subdomain cookie. */
export interface AppLinkSettings {
  publicUrl: string;
  defaultTenant: string;
}

/** PUBLIC_URL, else this server on localhost; the tenant is DEFAULT_TENANT. */
export const appLinkSettings = (config: ServerConfig): AppLinkSettings => ({
  publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
  defaultTenant: config.DEFAULT_TENANT,
});

/**
 * A link into the web app for a mail. The web app picks its tenant from a cookie; the page opened
 * sets it from `?tenant=`, which links of the default tenant do without.
 */
export function appLink(settings: AppLinkSettings, tenant: TenantRow, path: string): string {
  const url = new URL(path, settings.publicUrl);
  if (tenant.subdomain !== settings.defaultTenant) url.searchParams.set('tenant', tenant.subdomain);
  return url.toString();
}

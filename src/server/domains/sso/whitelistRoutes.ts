import { bulkDeleteSsoWhitelist, bulkUpsertSsoWhitelist, exportSsoWhitelist, listSsoWhitelist } from '../../../shared/api/admin/ssoWhitelist';
import * as whitelist from './whitelist';
import { RESPONSE_WRITTEN, registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The SSO whitelist's admin calls (spec §7). */
export const ssoWhitelistRoutes = domainRoutes('sso.whitelist', (app, { db }) => {
  registerEndpoint(app, listSsoWhitelist, async ({ tenant, query }) => whitelist.listWhitelist(db, tenant.id, query));
  registerEndpoint(app, bulkUpsertSsoWhitelist, async ({ body, requireMember }) => whitelist.upsertWhitelist(db, requireMember(), body.sso_member_whitelist));
  registerEndpoint(app, bulkDeleteSsoWhitelist, async ({ body, requireMember }) =>
    whitelist.deleteWhitelistEntries(db, requireMember(), body.sso_member_whitelist_ids),
  );
  registerEndpoint(app, exportSsoWhitelist, async ({ tenant, reply }) => {
    const csv = await whitelist.exportWhitelist(db, tenant.id);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="sso-whitelist.csv"')
      .header('cache-control', 'private, no-store')
      .send(csv);
    return RESPONSE_WRITTEN;
  });
});

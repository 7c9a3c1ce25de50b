import { listAuditLog } from '../../../shared/api/admin/auditLog';
import * as audit from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The console's audit log: read only (services record entries in the transactions of their writes). */
export const auditLogRoutes = domainRoutes('auditLog', (app, { db }) => {
  registerEndpoint(app, listAuditLog, async ({ tenant, query }) => audit.listAuditLog(db, tenant.id, query));
});

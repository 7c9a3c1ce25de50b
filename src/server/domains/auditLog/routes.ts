import type { FastifyInstance } from 'fastify';
import { listAuditLog } from '../../../shared/api/admin/auditLog';
import type { Database } from '../../db/client';
import * as audit from './service';
import { registerEndpoint } from '../../routes/endpointRoute';

/** The console's audit log: read only (services record entries in the transactions of their writes). */
export function registerAuditLogRoutes(app: FastifyInstance, db: Database): void {
  registerEndpoint(app, listAuditLog, async ({ tenant, query }) => audit.listAuditLog(db, tenant.id, query));
}

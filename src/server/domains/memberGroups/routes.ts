import type { FastifyInstance } from 'fastify';
import { listMemberGroups } from '../../../shared/api/memberGroups';
import type { Database } from '../../db/client';
import * as memberGroups from './service';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerMemberGroupRoutes(app: FastifyInstance, db: Database): void {
  registerEndpoint(app, listMemberGroups, async ({ tenant, query }) => memberGroups.listMemberGroups(db, tenant.id, query));
}

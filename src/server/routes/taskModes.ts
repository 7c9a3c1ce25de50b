import type { FastifyInstance } from 'fastify';
import { listTaskModes } from '../../shared/api/taskModes';
import type { Database } from '../db/client';
import { listTaskModes as listTenantTaskModes } from '../services/taskModes';
import { registerEndpoint } from './endpointRoute';

export function registerTaskModeRoutes(app: FastifyInstance, db: Database): void {
  registerEndpoint(app, listTaskModes, async ({ tenant, requireMember }) => listTenantTaskModes(db, tenant.id, requireMember().language));
}

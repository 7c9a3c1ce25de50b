import type { FastifyInstance } from 'fastify';
import { getTask } from '../../../shared/api/tasks';
import type { Database } from '../../db/client';
import { getOwnTask } from './service';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerTaskRoutes(app: FastifyInstance, db: Database): void {
  registerEndpoint(app, getTask, async ({ params, requireMember }) => getOwnTask(db, requireMember(), params.id));
}

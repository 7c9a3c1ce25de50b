import { getTask } from '../../../shared/api/tasks';
import { getOwnTask } from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const taskRoutes = domainRoutes('tasks', (app, { db }) => {
  registerEndpoint(app, getTask, async ({ params, requireMember }) => getOwnTask(db, requireMember(), params.id));
});

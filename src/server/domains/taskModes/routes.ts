import { createTaskMode, deleteTaskMode, listAdminTaskModes, updateTaskMode } from '../../../shared/api/admin/taskModes';
import { listTaskModes } from '../../../shared/api/taskModes';
import * as modes from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const taskModeRoutes = domainRoutes('taskModes', (app, { db }) => {
  registerEndpoint(app, listTaskModes, async ({ tenant, requireMember }) => modes.listTaskModes(db, tenant.id, requireMember().language));
  registerEndpoint(app, listAdminTaskModes, async ({ tenant, requireMember }) => ({
    items: await modes.listAdminTaskModes(db, tenant.id, requireMember().language),
  }));
  registerEndpoint(app, createTaskMode, async ({ tenant, body, requireMember }) => modes.createTaskMode(db, tenant.id, requireMember(), body));
  registerEndpoint(app, updateTaskMode, async ({ tenant, params, body, requireMember }) =>
    modes.updateTaskMode(db, tenant.id, requireMember(), params.id, body),
  );
  registerEndpoint(app, deleteTaskMode, async ({ tenant, params, requireMember }) => {
    await modes.deleteTaskMode(db, tenant.id, requireMember(), params.id);
    return { ok: true as const };
  });
});

import { listAdminLlmModels, setModelGroupPermission } from '../../../shared/api/admin/llmModels';
import { listLlmModels } from '../../../shared/api/llmModels';
import * as permissions from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const modelPermissionRoutes = domainRoutes('modelPermissions', (app, { db }) => {
  registerEndpoint(app, listLlmModels, async ({ query, requireMember }) => ({
    items: await permissions.memberModels(db, requireMember(), { forChatbot: query.for_chatbot ?? false }),
  }));
  registerEndpoint(app, listAdminLlmModels, async ({ tenant }) => permissions.permissionMatrix(db, tenant.id));
  registerEndpoint(app, setModelGroupPermission, async ({ tenant, params, body, requireMember }) =>
    permissions.setPermission(db, tenant.id, requireMember(), params.modelId, params.groupId, body.is_available),
  );
});

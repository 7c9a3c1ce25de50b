import { bulkProcessPublishRequests, listAdminChatbots, processPublishRequest } from '../../../shared/api/admin/chatbots';
import * as publishing from './admin';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const adminChatbotRoutes = domainRoutes('chatbots.admin', (app, deps) => {
  const { db } = deps;
  registerEndpoint(app, listAdminChatbots, async ({ query, requireMember }) => publishing.listAdminChatbots(db, requireMember(), query));
  registerEndpoint(app, processPublishRequest, async ({ params, body, requireMember }) =>
    publishing.processPublishRequest(deps, requireMember(), params.id, body),
  );
  registerEndpoint(app, bulkProcessPublishRequests, async ({ body, requireMember }) =>
    publishing.bulkProcessPublishRequests(deps, requireMember(), body.chatbot_ids, body),
  );
});

import type { FastifyInstance } from 'fastify';
import { bulkProcessPublishRequests, listAdminChatbots, processPublishRequest } from '../../../shared/api/admin/chatbots';
import type { PublishingDeps } from './admin';
import * as publishing from './admin';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerAdminChatbotRoutes(app: FastifyInstance, deps: PublishingDeps): void {
  const { db } = deps;
  registerEndpoint(app, listAdminChatbots, async ({ query, requireMember }) => publishing.listAdminChatbots(db, requireMember(), query));
  registerEndpoint(app, processPublishRequest, async ({ params, body, requireMember }) => publishing.processPublishRequest(deps, requireMember(), params.id, body));
  registerEndpoint(app, bulkProcessPublishRequests, async ({ body, requireMember }) =>
    publishing.bulkProcessPublishRequests(deps, requireMember(), body.chatbot_ids, body),
  );
}

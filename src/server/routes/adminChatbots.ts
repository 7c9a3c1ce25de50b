import type { FastifyInstance } from 'fastify';
import { bulkProcessPublishRequests, listAdminChatbots, processPublishRequest } from '../../shared/api/admin/chatbots';
import type { Database } from '../db/client';
import type { MailService } from '../mail/service';
import * as publishing from '../services/adminChatbots';
import { registerEndpoint } from './endpointRoute';

export function registerAdminChatbotRoutes(app: FastifyInstance, { db, mail }: { db: Database; mail: MailService }): void {
  const deps = { db, mail, log: app.log };
  registerEndpoint(app, listAdminChatbots, async ({ query, requireMember }) => publishing.listAdminChatbots(db, requireMember(), query));
  registerEndpoint(app, processPublishRequest, async ({ params, body, requireMember }) => publishing.processPublishRequest(deps, requireMember(), params.id, body));
  registerEndpoint(app, bulkProcessPublishRequests, async ({ body, requireMember }) =>
    publishing.bulkProcessPublishRequests(deps, requireMember(), body.chatbot_ids, body),
  );
}

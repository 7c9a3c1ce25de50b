import type { FastifyInstance } from 'fastify';
import { forgetChatbot, rememberChatbot } from '../../../shared/api/chatbots';
import type { Database } from '../../db/client';
import * as recents from './recent';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerRecentChatbotRoutes(app: FastifyInstance, db: Database): void {
  registerEndpoint(app, rememberChatbot, async ({ params, requireMember }) => {
    await recents.rememberChatbot(db, requireMember(), params.id);
    return { ok: true as const };
  });
  registerEndpoint(app, forgetChatbot, async ({ params, requireMember }) => {
    await recents.forgetChatbot(db, requireMember(), params.id);
    return { ok: true as const };
  });
}

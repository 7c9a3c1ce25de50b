import type { FastifyInstance } from 'fastify';
import { chat } from '../../shared/api/chat';
import type { Database } from '../db/client';
import type { LlmRegistry } from '../llm/registry';
import { prepareChat, streamChat } from '../services/chat';
import { RESPONSE_WRITTEN, registerEndpoint } from './endpointRoute';

export function registerChatRoutes(app: FastifyInstance, deps: { db: Database; llm: LlmRegistry }): void {
  registerEndpoint(app, chat, async ({ params, body, tenant, requireMember, request, reply }) => {
    // Errors known before streaming are thrown here and answered as plain JSON statuses.
    const prepared = await prepareChat(deps.db, tenant, requireMember(), params.id, body);
    await streamChat({ ...deps, log: request.log }, prepared, reply);
    return RESPONSE_WRITTEN;
  });
}

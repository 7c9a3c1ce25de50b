import { generatePublicSessionTitle, getPublicChatbot, getPublicSession, getPublicSessionHistory, publicChat } from '../../../shared/api/publicSessions';
import { PUBLIC_CHAT_RATE_LIMIT, PUBLIC_TITLE_RATE_LIMIT } from '../../../shared/domain/sharing';
import * as publicSessions from './service';
import { writeChatStream } from '../chat/routes';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Shared sessions and visitors' chats with public chatbots: no sign-in (spec §6, token value `public`). */
export const publicSessionRoutes = domainRoutes('publicSessions', (app, deps) => {
  const { db } = deps;
  const features = { webSearch: deps.sources?.webSearchAvailable ?? false };
  registerEndpoint(app, getPublicChatbot, async ({ params, tenant }) => publicSessions.getPublicChatbot(db, tenant, params.hash, features));
  registerEndpoint(app, getPublicSession, async ({ params, tenant }) => publicSessions.getPublicSession(db, tenant, params.hash));
  registerEndpoint(app, getPublicSessionHistory, async ({ params, query, tenant }) => publicSessions.getPublicHistory(db, tenant, params.hash, query));
  registerEndpoint(
    app,
    generatePublicSessionTitle,
    async ({ params, query, tenant, request }) => publicSessions.generatePublicTitle({ ...deps, log: request.log }, tenant, params.hash, query.language),
    { rateLimit: { name: 'public-title', ...PUBLIC_TITLE_RATE_LIMIT } },
  );
  registerEndpoint(
    app,
    publicChat,
    async ({ params, body, tenant, request, reply }) => {
      const turn = await publicSessions.openPublicTurn(deps, tenant, params.id, body);
      return writeChatStream(deps, turn, request, reply);
    },
    { rateLimit: { name: 'public-chat', ...PUBLIC_CHAT_RATE_LIMIT } },
  );
});

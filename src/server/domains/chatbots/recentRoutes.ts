import { forgetChatbot, rememberChatbot } from '../../../shared/api/chatbots';
import * as recents from './recent';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const recentChatbotRoutes = domainRoutes('chatbots.recent', (app, { db }) => {
  registerEndpoint(app, rememberChatbot, async ({ params, requireMember }) => {
    await recents.rememberChatbot(db, requireMember(), params.id);
    return { ok: true as const };
  });
  registerEndpoint(app, forgetChatbot, async ({ params, requireMember }) => {
    await recents.forgetChatbot(db, requireMember(), params.id);
    return { ok: true as const };
  });
});

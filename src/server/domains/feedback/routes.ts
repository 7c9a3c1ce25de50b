import { listFeedback } from '../../../shared/api/admin/feedback';
import { getChatbotFeedback, rateAnswer, removeAnswerFeedback } from '../../../shared/api/feedback';
import * as feedback from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Members rate answers; the console and the Studio read the ratings. */
export const feedbackRoutes = domainRoutes('feedback', (app, { db }) => {
  registerEndpoint(app, rateAnswer, async ({ params, body, requireMember }) => feedback.rateAnswer(db, requireMember(), params.hash, params.id, body));
  registerEndpoint(app, removeAnswerFeedback, async ({ params, requireMember }) => {
    await feedback.removeFeedback(db, requireMember(), params.hash, params.id);
    return { ok: true as const };
  });
  registerEndpoint(app, getChatbotFeedback, async ({ params, query, requireMember }) => feedback.chatbotFeedback(db, requireMember(), params.id, query));
  registerEndpoint(app, listFeedback, async ({ tenant, query }) => feedback.listFeedback(db, tenant.id, query));
});

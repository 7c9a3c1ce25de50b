import { deleteSession, generateSessionTitle, getSession, getSessionHistory, listSessions, patchSession } from '../../../shared/api/sessions';
import * as sessions from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const sessionRoutes = domainRoutes('sessions', (app, { db, llm }) => {
  registerEndpoint(app, listSessions, async ({ query, requireMember }) => sessions.listSessions(db, requireMember(), query));
  registerEndpoint(app, getSession, async ({ params, requireMember }) => sessions.getSession(db, requireMember(), params.hash));
  registerEndpoint(app, getSessionHistory, async ({ params, query, requireMember }) => sessions.getHistory(db, requireMember(), params.hash, query));
  registerEndpoint(app, patchSession, async ({ params, body, requireMember }) => sessions.updateSession(db, requireMember(), params.hash, body));
  registerEndpoint(app, generateSessionTitle, async ({ params, requireMember, request }) =>
    sessions.generateTitle({ db, llm, log: request.log }, requireMember(), params.hash),
  );
  registerEndpoint(app, deleteSession, async ({ params, requireMember }) => {
    await sessions.deleteSession(db, requireMember(), params.hash);
    return { ok: true as const };
  });
});

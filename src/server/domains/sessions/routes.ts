import type { FastifyInstance } from 'fastify';
import { deleteSession, generateSessionTitle, getSession, getSessionHistory, listSessions, patchSession } from '../../../shared/api/sessions';
import type { Database } from '../../db/client';
import type { LlmRegistry } from '../../llm/registry';
import * as sessions from './service';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerSessionRoutes(app: FastifyInstance, { db, llm }: { db: Database; llm: LlmRegistry }): void {
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
}

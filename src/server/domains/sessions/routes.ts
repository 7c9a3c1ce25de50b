import { deleteSession, generateSessionTitle, getSession, getSessionHistory, listSessions, patchSession, switchBranch } from '../../../shared/api/sessions';
import { searchWords } from '../../../shared/domain/sessionSearch';
import { exportSession, importSession } from '../../../shared/api/sessionTransfer';
import { SESSION_IMPORT_MAX_BYTES, sessionExportFileName } from '../../../shared/domain/sessionTransfer';
import { contentDisposition } from '../../shared/contentDisposition';
import { searchSessions } from './search';
import { sessionMarkdown } from './exportMarkdown';
import * as transfer from './transfer';
import * as sessions from './service';
import { RESPONSE_WRITTEN, registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const sessionRoutes = domainRoutes('sessions', (app, { db, llm, clock, guard }) => {
  registerEndpoint(app, listSessions, async ({ query, requireMember }) => {
    const words = searchWords(query.search_term ?? '');
    return words.length > 0 ? searchSessions(db, requireMember(), words, query) : sessions.listSessions(db, requireMember(), query);
  });
  registerEndpoint(app, getSession, async ({ params, requireMember }) => sessions.getSession(db, requireMember(), params.hash));
  registerEndpoint(app, getSessionHistory, async ({ params, query, requireMember }) => sessions.getHistory(db, requireMember(), params.hash, query));
  registerEndpoint(app, switchBranch, async ({ params, body, requireMember }) => sessions.switchBranch(db, requireMember(), params.hash, body));
  registerEndpoint(app, patchSession, async ({ params, body, requireMember }) => sessions.updateSession(db, requireMember(), params.hash, body));
  registerEndpoint(app, generateSessionTitle, async ({ params, requireMember, request }) =>
    sessions.generateTitle({ db, llm, log: request.log }, requireMember(), params.hash),
  );
  registerEndpoint(app, exportSession, async ({ params, query, requireMember, reply }) => {
    const member = requireMember();
    const document = await transfer.exportSession({ db, clock }, member, params.hash);
    void reply
      .header('content-type', query.format === 'json' ? 'application/json; charset=utf-8' : 'text/markdown; charset=utf-8')
      .header('content-disposition', contentDisposition(sessionExportFileName(document.title, query.format)))
      .header('cache-control', 'private, no-store')
      .send(query.format === 'json' ? JSON.stringify(document, null, 2) : sessionMarkdown(document, member.language));
    return RESPONSE_WRITTEN;
  });
  registerEndpoint(app, importSession, async ({ body, requireMember }) => transfer.importSession({ db, clock, guard }, requireMember(), body), {
    bodyLimit: SESSION_IMPORT_MAX_BYTES,
  });
  registerEndpoint(app, deleteSession, async ({ params, requireMember }) => {
    await sessions.deleteSession(db, requireMember(), params.hash);
    return { ok: true as const };
  });
});

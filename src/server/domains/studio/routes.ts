import {
  checkPublicHash,
  createChatbot,
  deleteChatbot,
  deleteChatbotDocument,
  updateChatbot,
  updateChatbotAccess,
  uploadChatbotDocuments,
} from '../../../shared/api/chatbots';
import * as studio from './service';
import { fileLimitsFor } from '../files/service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { readUpload, registerMultipartRoutes } from '../files/routes';
import { domainRoutes } from '../plugin';

/** The Studio: a member's own chatbots, their access and their documents. */
export const studioRoutes = domainRoutes('studio', (app, deps) => {
  const { db } = deps;
  const ok = { ok: true as const };
  registerEndpoint(app, createChatbot, async ({ body, requireMember }) => studio.createChatbot(db, requireMember(), body ?? {}));
  registerEndpoint(app, updateChatbot, async ({ params, body, requireMember }) => studio.updateChatbot(deps, requireMember(), params.id, body));
  registerEndpoint(app, deleteChatbot, async ({ params, requireMember }) => {
    await studio.deleteChatbot(deps, requireMember(), params.id);
    return ok;
  });
  registerEndpoint(app, updateChatbotAccess, async ({ params, body, requireMember }) => studio.updateChatbotAccess(db, requireMember(), params.id, body));
  registerEndpoint(app, checkPublicHash, async ({ params, body, requireMember }) =>
    studio.checkPublicHash(db, requireMember(), params.id, body.public_hash_id),
  );
  registerMultipartRoutes(app, (scope) =>
    registerEndpoint(scope, uploadChatbotDocuments, async ({ params, tenant, requireMember, request }) => {
      const member = requireMember();
      const { parts } = await readUpload(request, fileLimitsFor(deps.config, tenant));
      const items = await studio.uploadChatbotDocuments(deps, tenant, member, params.id, parts);
      // This process searches the new list from the next send.
      deps.sources.forgetDocuments(params.id);
      return { items };
    }),
  );
  registerEndpoint(app, deleteChatbotDocument, async ({ params, requireMember }) => {
    await studio.deleteChatbotDocument(deps, requireMember(), params.id, params.docId);
    deps.sources.forgetDocuments(params.id);
    return ok;
  });
});

import { createApiKey, listApiKeys, revokeApiKey, updateApiKey } from '../../../shared/api/apiKeys';
import * as keys from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const apiKeyRoutes = domainRoutes('apiKeys', (app, { db }) => {
  registerEndpoint(app, listApiKeys, async ({ query, requireMember }) => keys.listApiKeys(db, requireMember(), query));
  registerEndpoint(app, createApiKey, async ({ body, requireMember }) => keys.createApiKey(db, requireMember(), body));
  registerEndpoint(app, updateApiKey, async ({ params, body, requireMember }) => keys.updateApiKey(db, requireMember(), params.id, body));
  registerEndpoint(app, revokeApiKey, async ({ params, requireMember }) => keys.revokeApiKey(db, requireMember(), params.id));
});

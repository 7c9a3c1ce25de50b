import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyCaller } from '../domains/apiKeys/service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of an `apiKey` endpoint's call, and its owner. */
    apiKey: ApiKeyCaller | null;
  }
  interface FastifyInstance {
    /** Sets request.apiKey (and request.member to its owner) from `Authorization: Bearer <key>`, or throws 401/429. */
    authenticateApiKey(request: FastifyRequest): Promise<void>;
  }
}

/** `authenticate` checks the key (and counts the call against the key's rate limit). */
export function registerApiKeyAuthentication(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<ApiKeyCaller>): void {
  app.decorateRequest('apiKey', null);
  app.decorate('authenticateApiKey', async (request: FastifyRequest) => {
    const caller = await authenticate(request);
    request.apiKey = caller;
    request.member = caller.member;
  });
}

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ACCESS_TOKEN_HEADER, API_PREFIX } from '../shared/domain/http';
import type { ServerConfig } from './config';
import type { Database } from './db/client';
import { AppError } from './errors';
import { type LlmRegistry, createLlmRegistry, llmSettingsFromConfig } from './llm/registry';
import { registerAuthentication } from './plugins/auth';
import { registerErrorHandling } from './plugins/errors';
import { registerNulByteRejection } from './plugins/nulBytes';
import { registerSecurityHeaders } from './plugins/securityHeaders';
import { registerTenantResolution } from './plugins/tenant';
import { registerAnnouncementRoutes } from './routes/announcements';
import { registerAssetRoutes } from './routes/assets';
import { registerAuthRoutes } from './routes/auth';
import { registerCatalogRoutes } from './routes/catalog';
import { registerChatRoutes } from './routes/chat';
import { registerErrorLogRoutes } from './routes/errorLog';
import { registerMemberRoutes } from './routes/members';
import { registerSessionRoutes } from './routes/sessions';
import { createAuthService } from './services/auth';
import { failAbandonedAnswers } from './services/chat';

export interface BuildAppOptions {
  db: Database;
  config: ServerConfig;
  /** Defaults to the registry the configuration describes (demo, plus OpenAI-compatible when LLM_* is set). */
  llm?: LlmRegistry;
  logger?: FastifyServerOptions['logger'];
  /** Directory of the built web client to serve with an SPA fallback (skipped when missing). */
  webRoot?: string;
}

/**
 * The whole API as a Fastify instance, ready to `listen` or `inject`. Building it first fails the
 * answers an earlier process left streaming when it died.
 */
export async function buildApp({ db, config, llm, logger = false, webRoot }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger, trustProxy: config.TRUST_PROXY });
  const abandoned = await failAbandonedAnswers(db);
  if (abandoned > 0) app.log.warn({ count: abandoned }, 'marked chat answers abandoned by an earlier server process as failed');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await registerSecurityHeaders(app, { servedOverHttps: config.COOKIE_SECURE });
  registerNulByteRejection(app);

  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', 'Too many attempts. Please try again later.', { retry_after_seconds: Math.ceil(context.ttl / 1000) }),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Chatbot platform API', version: '1.0.0', description: 'Reference server of the shared API contract (src/shared/api).' },
      servers: [{ url: '/' }],
      components: { securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: ACCESS_TOKEN_HEADER } } },
    },
    transform: jsonSchemaTransform,
  });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  registerAssetRoutes(app);

  const auth = createAuthService(db, {
    accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
  });
  const llmRegistry = llm ?? createLlmRegistry(llmSettingsFromConfig(config));

  await app.register(
    async (api) => {
      registerTenantResolution(api, db, config.DEFAULT_TENANT);
      registerAuthentication(api, auth);
      registerAuthRoutes(api, { db, auth, config });
      registerMemberRoutes(api, db);
      registerCatalogRoutes(api, db);
      registerSessionRoutes(api, db);
      registerChatRoutes(api, { db, llm: llmRegistry });
      registerAnnouncementRoutes(api, db);
      registerErrorLogRoutes(api, db);
    },
    { prefix: API_PREFIX },
  );

  // The built web client on the same port; unknown non-API GETs get index.html (client-side routes).
  const servesWebClient = Boolean(webRoot && existsSync(resolve(webRoot, 'index.html')));
  if (webRoot && servesWebClient) await app.register(fastifyStatic, { root: resolve(webRoot), wildcard: false });
  app.setNotFoundHandler((request, reply) => {
    const isPageRequest = request.method === 'GET' && !request.url.startsWith(`${API_PREFIX}/`);
    if (servesWebClient && isPageRequest) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ code: 'not_found', message: 'The data does not exist.' });
  });
  return app;
}

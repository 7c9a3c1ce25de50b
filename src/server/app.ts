import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ACCESS_TOKEN_HEADER, API_PREFIX } from '../shared/domain/http';
import { runEvery } from './jobs/periodic';
import { type DepsOptions, buildDeps } from './deps';
import { domainPlugins } from './domains';
import { REQUEST_CONTEXT } from './domains/plugin';
import { authenticateApiKey, bearerKey } from './domains/apiKeys/service';
import { defineRenewalJobs } from './domains/billing/renewals';
import { sweepAbandonedAnswers } from './domains/chat/service';
import { type CreditPeriods, defineCreditPeriodJobs } from './domains/credits/periods';
import { sweepTaskFiles } from './domains/tasks/taskFiles';
import { registerApiKeyAuthentication } from './plugins/apiKeyAuth';
import { registerAuthentication } from './plugins/auth';
import { registerErrorHandling } from './plugins/errors';
import { registerNulByteRejection } from './plugins/nulBytes';
import { registerRateLimiter } from './plugins/rateLimit';
import { registerSecurityHeaders } from './plugins/securityHeaders';
import { registerTenantResolution } from './plugins/tenant';
import { registerApiReferenceRoutes } from './routes/apiReference';
import { registerAssetRoutes } from './routes/assets';
import { errorResponses } from './routes/endpointRoute';
import { paymentCspSources } from './payments';

/** The container's inputs (DepsOptions), and the HTTP side's own. */
export interface BuildAppOptions extends DepsOptions {
  logger?: FastifyServerOptions['logger'];
  /** Directory of the built web client to serve with an SPA fallback (skipped when missing). */
  webRoot?: string;
  /**
   * Tests: answer 500 instead of an AppError whose code the endpoint's contract does not declare
   * (plugins/errors.ts). Off in production, where such an answer is only logged.
   */
  strictErrorCodes?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Enqueues the credit period jobs that are due (the server does it on a timer; tests call it). */
    creditPeriods: CreditPeriods;
    /** Deletes task files past MEMBER_EXPORT_RETENTION_HOURS (the server does it on a timer; tests call it); how many went. */
    sweepTaskFiles(): Promise<number>;
    /** Saves chat answers whose lease ran out as interrupted (the server does it on a timer); how many. */
    sweepAbandonedAnswers(): Promise<number>;
  }
}

/**
 * How long the answers cut off at the shutdown deadline may take to be saved (their saves retry
 * for about 8 s on a lost connection) before the process exits anyway and leaves them to a sweep.
 */
const SHUTDOWN_SAVE_TIMEOUT_MS = 10_000;

const OPENAPI_TITLE = 'Chatbot platform API';

/**
 * The whole API as a Fastify instance, ready to `listen` or `inject`. Building it first saves the
 * answers a process that died left streaming (their leases ran out). Closing it lets chat streams
 * and jobs finish until their shutdown deadlines, then cuts off the streams still going.
 */
export async function buildApp({ logger = false, webRoot, strictErrorCodes = false, ...inputs }: BuildAppOptions): Promise<FastifyInstance> {
  const { db, config } = inputs;
  const app = Fastify({ logger, trustProxy: config.TRUST_PROXY });
  const deps = buildDeps(app, inputs);
  const { mail, jobs, answers } = deps;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, { strictErrorCodes });
  await registerSecurityHeaders(app, { servedOverHttps: config.COOKIE_SECURE, extraCspSources: paymentCspSources(deps.payments, config) });
  registerNulByteRejection(app);

  await app.register(fastifyCookie);
  registerRateLimiter(app, deps.limiter);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: OPENAPI_TITLE, version: '1.0.0', description: 'Reference server of the shared API contract (src/shared/api).' },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: ACCESS_TOKEN_HEADER },
          // Developers' API keys (the OpenAI-compatible API): `Authorization: Bearer cbp_live_…`.
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the Developers page' },
        },
      },
    },
    // Each operation also lists its error responses from the contract's declaration (endpointRoute.ts).
    transform: (route) => {
      const transformed = jsonSchemaTransform(route);
      const endpoint = route.route.config?.endpoint;
      if (!endpoint) return transformed;
      const schema = transformed.schema as { response?: Record<string, unknown> };
      return { ...transformed, schema: { ...transformed.schema, response: { ...schema.response, ...errorResponses(endpoint) } } };
    },
  });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  registerApiReferenceRoutes(app, OPENAPI_TITLE);
  registerAssetRoutes(app);

  const sweepAnswers = async () => {
    const swept = await sweepAbandonedAnswers(deps);
    if (swept > 0) app.log.warn({ count: swept }, 'saved chat answers whose server stopped streaming them as interrupted');
    return swept;
  };
  app.decorate('sweepAbandonedAnswers', sweepAnswers);
  const sweepFailed = (error: unknown) => app.log.error({ err: error }, 'chat answer sweep failed');
  // At once for answers a process that died left behind; a failure here leaves them to the timer, not the start.
  await sweepAnswers().catch(sweepFailed);
  const sweepRenewals = defineRenewalJobs(deps);
  app.decorate('sweepRenewals', sweepRenewals);
  const creditPeriods = defineCreditPeriodJobs(deps);
  app.decorate('creditPeriods', creditPeriods);
  const sweepFiles = () => sweepTaskFiles(deps);
  app.decorate('sweepTaskFiles', sweepFiles);

  // What every domain's routes read from a request: its tenant, its member, its API-key caller.
  const requestContext = fp(
    async (api) => {
      registerTenantResolution(api, deps);
      registerAuthentication(api, deps.auth);
      registerApiKeyAuthentication(api, async (request) => {
        const caller = await authenticateApiKey(db, request.tenant, bearerKey(request.headers.authorization));
        // Per key, in the shared store: every process counts the same calls.
        await app.rateLimiter.rateLimit(`api-key:${caller.key.id}`, config.API_KEY_RATE_LIMIT, 60_000);
        return caller;
      });
    },
    { name: REQUEST_CONTEXT },
  );
  await app.register(
    async (api) => {
      await api.register(requestContext);
      for (const plugin of domainPlugins) await api.register(plugin, deps);
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

  await jobs.start(app.log);
  // Before the server closes its connections: new requests are answered 503 meanwhile, and both
  // deadlines count from the signal, so the process is gone soon after SHUTDOWN_TIMEOUT_SECONDS.
  app.addHook('preClose', async () => {
    await Promise.all([answers.drain(config.SHUTDOWN_TIMEOUT_SECONDS * 1000, SHUTDOWN_SAVE_TIMEOUT_MS), jobs.stop()]);
  });
  // The mail sender is background work like the jobs: an API-only process (JOB_CONCURRENCY=0) leaves it to the others.
  if (config.JOB_CONCURRENCY > 0) mail.start();
  // After the jobs have stopped (preClose): a job finishing its work may still deliver mail.
  app.addHook('onClose', () => mail.close());
  const timers = [
    runEvery(config.STREAM_FLUSH_SECONDS, answers.flush, (error) => app.log.error({ err: error }, 'writing streaming chat answers failed')),
    runEvery(config.STREAM_SWEEP_SECONDS, sweepAnswers, sweepFailed),
    runEvery(config.BILLING_RENEWAL_SWEEP_SECONDS, sweepRenewals, (error) => app.log.error({ err: error }, 'membership renewal sweep failed')),
    runEvery(
      config.CREDIT_PERIOD_CHECK_MINUTES * 60,
      () => creditPeriods.enqueueDue(),
      (error) => app.log.error({ err: error }, 'credit period check failed'),
    ),
    runEvery(config.TASK_FILE_SWEEP_MINUTES * 60, sweepFiles, (error) => app.log.error({ err: error }, 'task file sweep failed')),
  ];
  app.addHook('onClose', async () => timers.forEach((stop) => stop()));
  return app;
}

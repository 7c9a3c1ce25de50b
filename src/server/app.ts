import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { ACCESS_TOKEN_HEADER, API_PREFIX } from '../shared/domain/http';
import type { ServerConfig } from './config';
import { clock } from './clock';
import type { Database } from './db/client';
import { type JobQueue, createJobQueue, jobQueueSettings } from './jobs/queue';
import { type CreditPeriods, defineCreditPeriodJobs } from './domains/credits/periods';
import { runEvery } from './jobs/periodic';
import { sweepTaskFiles } from './domains/tasks/taskFiles';
import { type LlmRegistry, createLlmRegistry, llmSettingsFromConfig } from './llm/registry';
import { registerApiKeyAuthentication } from './plugins/apiKeyAuth';
import { registerAuthentication } from './plugins/auth';
import { registerErrorHandling } from './plugins/errors';
import { registerNulByteRejection } from './plugins/nulBytes';
import { registerRateLimiter } from './plugins/rateLimit';
import { registerSecurityHeaders } from './plugins/securityHeaders';
import { registerTenantResolution } from './plugins/tenant';
import { registerAnnouncementRoutes } from './domains/announcements/routes';
import { registerApiReferenceRoutes } from './routes/apiReference';
import { registerAssetRoutes } from './routes/assets';
import { registerAuthRoutes } from './domains/auth/routes';
import { registerCatalogRoutes } from './domains/chatbots/routes';
import { registerChatRoutes } from './domains/chat/routes';
import { registerErrorLogRoutes } from './domains/errorLog/routes';
import { registerFileRoutes } from './domains/files/routes';
import { registerMemberRoutes } from './domains/members/routes';
import { registerMemberGroupRoutes } from './domains/memberGroups/routes';
import { registerPasswordRoutes } from './domains/auth/passwordRoutes';
import { registerSecurityRoutes } from './domains/security/routes';
import { registerSignupRoutes } from './domains/signup/routes';
import { registerSsoRoutes } from './domains/sso/routes';
import { registerInvitationRoutes } from './domains/invitations/routes';
import { registerMemberTransferRoutes } from './domains/members/transferRoutes';
import { createOutboundGuard } from './net/outboundGuard';
import { createDirectoryAdapter } from './sso/directory';
import { createOidcAdapter } from './sso/oidc';
import { registerTenantSettingsRoutes } from './domains/tenantSettings/routes';
import { registerAuditLogRoutes } from './domains/auditLog/routes';
import { createMailOutbox } from './mail/outbox';
import { createMailTransport } from './mail/transport';
import { createSmsService } from './sms/service';
import { registerPublicSessionRoutes } from './domains/publicSessions/routes';
import { registerSessionRoutes } from './domains/sessions/routes';
import { registerStudioRoutes } from './domains/studio/routes';
import { registerTaskModeRoutes } from './domains/taskModes/routes';
import { registerTaskRoutes } from './domains/tasks/routes';
import { registerInquiryRoutes } from './domains/inquiries/routes';
import { registerModelPermissionRoutes } from './domains/modelPermissions/routes';
import { registerAdminChatbotRoutes } from './domains/chatbots/adminRoutes';
import { registerCreditRoutes } from './domains/credits/routes';
import { registerAdminMemberGroupRoutes } from './domains/memberGroups/adminRoutes';
import { registerSsoWhitelistRoutes } from './domains/sso/whitelistRoutes';
import { registerAdminMemberRoutes } from './domains/members/adminRoutes';
import { registerRecentChatbotRoutes } from './domains/chatbots/recentRoutes';
import { registerBillingRoutes } from './domains/billing/routes';
import { defineRenewalJobs } from './domains/billing/renewals';
import { paymentCspSources, paymentProviderFromConfig } from './payments';
import type { PaymentProvider } from './payments/provider';
import type { BillingDeps } from './domains/billing/membership';
import { registerApiKeyRoutes } from './domains/apiKeys/routes';
import { registerOpenAiRoutes } from './domains/openai/routes';
import { authenticateApiKey, bearerKey } from './domains/apiKeys/service';
import { createAuthService } from './domains/auth/service';
import { createPasswordService } from './domains/auth/passwords';
import { sweepAbandonedAnswers } from './domains/chat/service';
import { createLiveAnswers } from './domains/chat/liveAnswers';
import { createInputGuard } from './domains/security/inputGuard';
import { createSources } from './domains/chat/sources';
import { embedderFromConfig, setEmbedder } from './retrieval';
import { searchProviderFromConfig } from './search';
import { createFileContext } from './domains/chat/fileContext';
import { defineFileJobs } from './domains/files/service';
import { type FileStore, createFileStore } from './storage/fileStore';
import { type RateLimitStore, createRateLimiter, createSignInDelays, postgresRateLimitStore, redisRateLimitStore } from './shared/rateLimit';
import { createDocumentPool, documentPoolSettings } from './workers/documentPool';

export interface BuildAppOptions {
  db: Database;
  config: ServerConfig;
  /** Defaults to the registry the configuration describes (demo, plus OpenAI-compatible when LLM_* is set). */
  llm?: LlmRegistry;
  logger?: FastifyServerOptions['logger'];
  /** Directory of the built web client to serve with an SPA fallback (skipped when missing). */
  webRoot?: string;
  /** A queue with job types already defined (tests); defaults to a new one on `db`. Started here, stopped on close. */
  jobs?: JobQueue;
  /** Defaults to the store the configuration describes (FILES_DIR or S3_BUCKET). */
  files?: FileStore;
  /** Defaults to PortOne when PORTONE_* is set, else the demo provider. */
  payments?: PaymentProvider;
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

/** Redis when REDIS_URL is set (its connection closes with the app), else the server's database. */
function rateLimitStore(app: FastifyInstance, db: Database, config: ServerConfig): RateLimitStore {
  if (!config.REDIS_URL) return postgresRateLimitStore(db);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
  redis.on('error', (error) => app.log.error({ err: error }, 'Redis (rate limits) connection error'));
  app.addHook('onClose', async () => {
    await redis.quit();
  });
  return redisRateLimitStore(redis);
}

const OPENAPI_TITLE = 'Chatbot platform API';

/**
 * The whole API as a Fastify instance, ready to `listen` or `inject`. Building it first saves the
 * answers a process that died left streaming (their leases ran out). Closing it lets chat streams
 * and jobs finish until their shutdown deadlines, then cuts off the streams still going.
 */
export async function buildApp({ db, config, llm, logger = false, webRoot, jobs: givenJobs, files = createFileStore(config), payments = paymentProviderFromConfig(config) }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger, trustProxy: config.TRUST_PROXY });
  const mail = createMailOutbox(
    db,
    createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log, timeoutMs: (config.MAIL_LEASE_SECONDS * 1000) / 2 }),
    {
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      retrySeconds: config.MAIL_RETRY_SECONDS,
      leaseSeconds: config.MAIL_LEASE_SECONDS,
      pollSeconds: config.JOB_POLL_INTERVAL_SECONDS,
      from: config.MAIL_FROM,
    },
    app.log,
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  await registerSecurityHeaders(app, { servedOverHttps: config.COOKIE_SECURE, extraCspSources: paymentCspSources(payments, config) });
  registerNulByteRejection(app);

  await app.register(fastifyCookie);
  const rateLimits = rateLimitStore(app, db, config);
  registerRateLimiter(app, createRateLimiter(rateLimits));
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
    transform: jsonSchemaTransform,
  });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  registerApiReferenceRoutes(app, OPENAPI_TITLE);
  registerAssetRoutes(app);

  const auth = createAuthService(db, {
    accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
    memberCacheTtlMs: config.AUTH_CACHE_TTL_SECONDS * 1000,
  });
  const sms = createSmsService({
    twilio:
      config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM
        ? { accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN, from: config.TWILIO_FROM, apiBase: config.TWILIO_API_BASE }
        : undefined,
    outboxDir: config.SMS_OUTBOX_DIR,
    log: app.log,
  });
  const signupDeps = { db, mail, sms, forgetMember: auth.forgetMember, endSessions: auth.endSessions, log: app.log };
  // Every connection made for a tenant (SSO today) goes through the one outbound guard (DESIGN §5).
  const outbound = createOutboundGuard(config.OUTBOUND_ALLOW);
  const ssoDeps = { ...signupDeps, auth, outbound, oidc: createOidcAdapter(outbound), directory: createDirectoryAdapter(outbound) };
  const authRateWindowMs = config.AUTH_RATE_WINDOW_SECONDS * 1000;
  const signInDelays = createSignInDelays(
    rateLimits,
    {
      emailFreeFailures: config.SIGN_IN_EMAIL_FREE_FAILURES,
      ipFreeFailures: config.SIGN_IN_IP_FREE_FAILURES,
      maxDelayMs: config.SIGN_IN_DELAY_MAX_SECONDS * 1000,
      memoryMs: config.SIGN_IN_FAILURE_MEMORY_SECONDS * 1000,
    },
    clock.now,
  );
  const links = { publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`, defaultTenant: config.DEFAULT_TENANT };
  const passwords = createPasswordService({
    db,
    auth,
    mail,
    limiter: app.rateLimiter,
    settings: {
      ...links,
      resetTtlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
      rateWindowMs: authRateWindowMs,
      resetEmailLimit: config.PASSWORD_RESET_EMAIL_RATE_LIMIT,
      passwordAttemptLimit: config.SIGN_IN_EMAIL_RATE_LIMIT,
    },
  });
  const llmRegistry = llm ?? createLlmRegistry(llmSettingsFromConfig(config));
  const answers = createLiveAnswers(db, config.STREAM_LEASE_SECONDS, app.log);
  const sweepAnswers = async () => {
    const swept = await sweepAbandonedAnswers(db, llmRegistry.imageModel().name, app.log);
    if (swept > 0) app.log.warn({ count: swept }, 'saved chat answers whose server stopped streaming them as interrupted');
    return swept;
  };
  app.decorate('sweepAbandonedAnswers', sweepAnswers);
  const sweepFailed = (error: unknown) => app.log.error({ err: error }, 'chat answer sweep failed');
  // At once for answers a process that died left behind; a failure here leaves them to the timer, not the start.
  await sweepAnswers().catch(sweepFailed);
  // Read on every send: kept as long as the tenant row (same staleness window).
  const inputGuard = createInputGuard(db, config.AUTH_CACHE_TTL_SECONDS * 1000);
  setEmbedder(db, embedderFromConfig(config));
  const sources = createSources(db, searchProviderFromConfig(config));
  const jobs = givenJobs ?? createJobQueue(db, jobQueueSettings(config));
  const store = files;
  const documents = createDocumentPool(documentPoolSettings(config), app.log);
  app.addHook('onClose', () => documents.close());
  const enqueueParse = defineFileJobs(jobs, { db, store, documents, log: app.log });
  const billingDeps: BillingDeps = { db, provider: payments, mail, clock: clock.now, links };
  const sweepRenewals = defineRenewalJobs(jobs, () => billingDeps);
  app.decorate('sweepRenewals', sweepRenewals);
  const creditPeriods = defineCreditPeriodJobs(jobs, db);
  app.decorate('creditPeriods', creditPeriods);
  const sweepFiles = () => sweepTaskFiles(db, store, config.MEMBER_EXPORT_RETENTION_HOURS * 3_600_000);
  app.decorate('sweepTaskFiles', sweepFiles);
  const chatDeps = {
    db,
    llm: llmRegistry,
    guard: inputGuard,
    sources,
    files: createFileContext(store),
    images: { files: store, creditsPerImage: config.IMAGE_CREDITS },
    answers,
  };

  await app.register(
    async (api) => {
      registerTenantResolution(api, db, config.DEFAULT_TENANT, config.AUTH_CACHE_TTL_SECONDS * 1000);
      registerAuthentication(api, auth);
      registerApiKeyAuthentication(api, async (request) => {
        const caller = await authenticateApiKey(db, request.tenant, bearerKey(request.headers.authorization));
        // Per key, in the shared store: every process counts the same calls.
        await app.rateLimiter.rateLimit(`api-key:${caller.key.id}`, config.API_KEY_RATE_LIMIT, 60_000);
        return caller;
      });
      registerAuthRoutes(api, { db, auth, config, sso: ssoDeps, signInDelays });
      registerPasswordRoutes(api, passwords, { ipLimit: config.PASSWORD_RESET_IP_RATE_LIMIT, windowMs: authRateWindowMs });
      registerMemberRoutes(api, db, auth);
      registerMemberGroupRoutes(api, db);
      registerCatalogRoutes(api, db, { webSearch: sources.webSearchAvailable });
      registerSessionRoutes(api, { db, llm: llmRegistry });
      registerPublicSessionRoutes(api, chatDeps);
      registerChatRoutes(api, chatDeps);
      registerTaskModeRoutes(api, db);
      registerAnnouncementRoutes(api, db);
      registerErrorLogRoutes(api, db, config);
      registerTaskRoutes(api, db);
      registerSecurityRoutes(api, inputGuard);
      registerFileRoutes(api, { db, store, rateLimits, config, documents, enqueueParse });
      registerInquiryRoutes(api, { db, mail, rateLimits, config });
      registerModelPermissionRoutes(api, db);
      registerAdminChatbotRoutes(api, { db, mail });
      registerCreditRoutes(api, db);
      registerAdminMemberGroupRoutes(api, db);
      registerSsoWhitelistRoutes(api, db);
      registerRecentChatbotRoutes(api, db);
      registerApiKeyRoutes(api, db);
      await registerOpenAiRoutes(api, chatDeps);
      registerStudioRoutes(api, { db, store, rateLimits, config, documents, enqueueParse, sources });
      registerSignupRoutes(api, signupDeps, config);
      registerAdminMemberRoutes(api, signupDeps);
      registerSsoRoutes(api, ssoDeps, config);
      registerInvitationRoutes(
        api,
        { ...signupDeps, limiter: app.rateLimiter, links, attemptLimit: config.SIGN_IN_EMAIL_RATE_LIMIT, windowMs: authRateWindowMs },
        config.SIGN_IN_RATE_LIMIT,
      );
      registerTenantSettingsRoutes(api, { db, store });
      registerAuditLogRoutes(api, db);
      registerBillingRoutes(api, billingDeps);
      registerMemberTransferRoutes(api, { db, store, documents, mail, links, log: app.log, jobs, timeLimitMs: config.MEMBER_EXPORT_TIME_LIMIT_SECONDS * 1000 });
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
    runEvery(config.CREDIT_PERIOD_CHECK_MINUTES * 60, () => creditPeriods.enqueueDue(), (error) => app.log.error({ err: error }, 'credit period check failed')),
    runEvery(config.TASK_FILE_SWEEP_MINUTES * 60, sweepFiles, (error) => app.log.error({ err: error }, 'task file sweep failed')),
  ];
  app.addHook('onClose', async () => timers.forEach((stop) => stop()));
  return app;
}

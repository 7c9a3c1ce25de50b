import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { ServerConfig } from './config';
import { clock } from './clock';
import type { Database } from './db/client';
import { type JobQueue, createJobQueue, jobQueueSettings } from './jobs/queue';
import type { LlmRegistry } from './llm/registry';
import { type MailOutbox, createMailOutbox } from './mail/outbox';
import { createMailTransport } from './mail/transport';
import { type OutboundGuard, createOutboundGuard } from './net/outboundGuard';
import type { PaymentProvider } from './payments/provider';
import { type Embedder, embedderFromConfig } from './retrieval';
import { searchProviderFromConfig } from './search';
import { type SmsService, createSmsService } from './sms/service';
import { type DirectoryAdapter, createDirectoryAdapter } from './sso/directory';
import { type OidcAdapter, createOidcAdapter } from './sso/oidc';
import type { FileStore } from './storage/fileStore';
import { type DocumentPool, createDocumentPool, documentPoolSettings } from './workers/documentPool';
import { type AuthService, createAuthService } from './domains/auth/service';
import { type PasswordService, createPasswordService } from './domains/auth/passwords';
import { type FileContext, createFileContext } from './domains/chat/fileContext';
import { type LiveAnswers, createLiveAnswers } from './domains/chat/liveAnswers';
import { type SourcesService, createSources } from './domains/chat/sources';
import { type EnqueueParse, defineFileJobs } from './domains/files/service';
import { type InputGuard, createInputGuard } from './domains/security/inputGuard';
import type { AppLinkSettings } from './shared/appLinks';
import {
  type RateLimitStore,
  type RateLimiter,
  type SignInDelays,
  createRateLimiter,
  createSignInDelays,
  postgresRateLimitStore,
  redisRateLimitStore,
} from './shared/rateLimit';

/**
 * Everything the domains are built from, made once per server by `buildDeps` and handed to every
 * domain plugin as its options (docs/decisions/0068-server-domains.md). A service declares what it
 * uses as `Pick<AppDeps, …>`, so a test passes only that.
 */
export interface AppDeps {
  db: Database;
  config: ServerConfig;
  /** The server clock (`clock.now`): tests move it. */
  clock: () => Date;
  log: FastifyBaseLogger;
  llm: LlmRegistry;
  /** The embedding model for retrieval, when EMBEDDING_* is set. */
  embedder?: Embedder;
  /** Where uploaded files' bytes live (FILES_DIR or S3_BUCKET). */
  store: FileStore;
  /** Where documents are read: parsing processes with memory and time limits. */
  documents: DocumentPool;
  jobs: JobQueue;
  mail: MailOutbox;
  sms: SmsService;
  payments: PaymentProvider;
  /** The rate-limit counters (PostgreSQL or Redis) shared by every server process. */
  rateLimits: RateLimitStore;
  limiter: RateLimiter;
  signInDelays: SignInDelays;
  /** Where mailed links point. */
  links: AppLinkSettings;
  /** Every connection made for a tenant (SSO today) goes through it (DESIGN §5). */
  outbound: OutboundGuard;
  oidc: OidcAdapter;
  directory: DirectoryAdapter;
  auth: AuthService;
  passwords: PasswordService;
  guard: InputGuard;
  sources: SourcesService;
  /** Turns attached files into the member's message for the model. */
  fileContext: FileContext;
  /** The chat answers this process streams. */
  answers: LiveAnswers;
  /** Queues the parsing of an uploaded file (the job is defined on `jobs` here, before the queue starts). */
  enqueueParse: EnqueueParse;
}

export interface DepsOptions {
  db: Database;
  config: ServerConfig;
  llm: LlmRegistry;
  /** The embedding model for retrieval, when EMBEDDING_* is set. */
  embedder?: Embedder;
  files: FileStore;
  payments: PaymentProvider;
  /** A queue with job types already defined (tests); defaults to a new one on `db`. */
  jobs?: JobQueue;
}

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

/**
 * Builds the container once per server. What holds a connection or a process (Redis, the document
 * pool) closes with `app`; the job queue and the mail sender are started and stopped by buildApp.
 */
export function buildDeps(app: FastifyInstance, { db, config, llm, files: store, payments, jobs: givenJobs }: DepsOptions): AppDeps {
  const log = app.log;
  const mail = createMailOutbox(
    db,
    createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, timeoutMs: (config.MAIL_LEASE_SECONDS * 1000) / 2 }),
    {
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      retrySeconds: config.MAIL_RETRY_SECONDS,
      leaseSeconds: config.MAIL_LEASE_SECONDS,
      pollSeconds: config.JOB_POLL_INTERVAL_SECONDS,
      from: config.MAIL_FROM,
    },
    log,
  );
  const rateLimits = rateLimitStore(app, db, config);
  const limiter = createRateLimiter(rateLimits);
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
    log,
  });
  const outbound = createOutboundGuard(config.OUTBOUND_ALLOW);
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
    limiter,
    settings: {
      ...links,
      resetTtlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
      rateWindowMs: config.AUTH_RATE_WINDOW_SECONDS * 1000,
      resetEmailLimit: config.PASSWORD_RESET_EMAIL_RATE_LIMIT,
      passwordAttemptLimit: config.SIGN_IN_EMAIL_RATE_LIMIT,
    },
  });
  const embedder = embedderFromConfig(config);
  const jobs = givenJobs ?? createJobQueue(db, jobQueueSettings(config));
  const documents = createDocumentPool(documentPoolSettings(config), log);
  app.addHook('onClose', () => documents.close());
  return {
    db,
    config,
    clock: clock.now,
    log,
    llm,
    embedder,
    store,
    documents,
    jobs,
    mail,
    sms,
    payments,
    rateLimits,
    limiter,
    signInDelays,
    links,
    outbound,
    oidc: createOidcAdapter(outbound),
    directory: createDirectoryAdapter(outbound),
    auth,
    passwords,
    // Read on every send: kept as long as the tenant row (same staleness window).
    guard: createInputGuard(db, config.AUTH_CACHE_TTL_SECONDS * 1000),
    sources: createSources({ db, embedder }, searchProviderFromConfig(config)),
    fileContext: createFileContext(store),
    answers: createLiveAnswers(db, config.STREAM_LEASE_SECONDS, log),
    enqueueParse: defineFileJobs({ jobs, db, store, documents, log, embedder }),
  };
}

import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { ServerConfig } from './config';
import { clock } from './clock';
import type { Database } from './db/client';
import { type JobQueue, createJobQueue } from './jobs/queue';
import { type LlmRegistry, createLlmRegistry } from './llm/registry';
import { type MailOutbox, createMailOutbox } from './mail/outbox';
import { type MailTransport, createMailTransport } from './mail/transport';
import { type OutboundGuard, createOutboundGuard } from './net/outboundGuard';
import { type McpConnector, createMcpConnector } from './mcp/connector';
import { paymentProviderFromConfig } from './payments';
import type { PaymentProvider } from './payments/provider';
import { type Embedder, embedderFromConfig } from './retrieval';
import { type SmsService, createSmsService } from './sms/service';
import { type DirectoryAdapter, createDirectoryAdapter } from './sso/directory';
import { type OidcAdapter, createOidcAdapter } from './sso/oidc';
import { type FileStore, createFileStore } from './storage/fileStore';
import { type DocumentPool, createDocumentPool } from './workers/documentPool';
import { type AuthService, createAuthService } from './domains/auth/service';
import { type PasswordService, createPasswordService } from './domains/auth/passwords';
import { type FileContext, createFileContext } from './domains/chat/fileContext';
import { type LiveAnswers, createLiveAnswers } from './domains/chat/liveAnswers';
import { type SendTargets, createSendTargets } from './domains/chat/sendContext';
import { type SourcesService, createSources } from './domains/chat/sources';
import { type EnqueueParse, defineFileJobs } from './domains/files/service';
import { type InputGuard, createInputGuard } from './domains/security/inputGuard';
import { type AppLinkSettings, appLinkSettings } from './shared/appLinks';
import {
  type RateLimitStore,
  type RateLimiter,
  type SignInDelays,
  createRateLimiter,
  createSignInDelays,
  postgresRateLimitStore,
  redisRateLimitStore,
} from './shared/rateLimit';

/** The logger calls services make: the server's and a request's Fastify logger fit, and so does a test's recorder. */
export interface ServerLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

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
  log: ServerLog;
  llm: LlmRegistry;
  /** The embedding model for retrieval, when EMBEDDING_* is set. */
  embedder?: Embedder;
  /** Where uploaded files' bytes live (FILES_DIR or S3_BUCKET). */
  store: FileStore;
  /** Where documents are read: parsing processes with memory and time limits. */
  documents: DocumentPool;
  jobs: JobQueue;
  /** How a mail leaves: SMTP (SMTP_URL), else the log. The outbox sends through it. */
  mailTransport: MailTransport;
  mail: MailOutbox;
  sms: SmsService;
  payments: PaymentProvider;
  /** The rate-limit counters (PostgreSQL or Redis) shared by every server process. */
  rateLimits: RateLimitStore;
  limiter: RateLimiter;
  signInDelays: SignInDelays;
  /** Where mailed links point. */
  links: AppLinkSettings;
  /** Every connection made for a tenant (SSO, MCP servers) goes through it (DESIGN §5). */
  outbound: OutboundGuard;
  oidc: OidcAdapter;
  directory: DirectoryAdapter;
  /** Lists the tools of tenants' MCP servers and calls them for the chat (through `outbound`). */
  mcp: McpConnector;
  /** The demo MCP server this process started (src/server/index.ts), and the demo tenant it is registered in. */
  demoMcp?: DemoMcp;
  auth: AuthService;
  passwords: PasswordService;
  guard: InputGuard;
  /** Where a chat send goes: its chatbot, model and model permission in one prepared statement. */
  sendTargets: SendTargets;
  sources: SourcesService;
  /** Turns attached files into the member's message for the model. */
  fileContext: FileContext;
  /** The chat answers this process streams. */
  answers: LiveAnswers;
  /** Queues the parsing of an uploaded file (the job is defined on `jobs` here, before the queue starts). */
  enqueueParse: EnqueueParse;
}

export interface DemoMcp {
  url: string;
  /** The demo tenant's subdomain. */
  tenant: string;
}

/** What a server is built on; what is left out is what the configuration describes. */
export interface DepsOptions {
  /** The demo MCP server the process started, when it did. */
  demoMcp?: DemoMcp;
  db: Database;
  config: ServerConfig;
  /** Defaults to the registry the configuration describes (demo, plus OpenAI-compatible when LLM_* is set). */
  llm?: LlmRegistry;
  /** A queue with job types already defined (tests); defaults to a new one on `db`. Started by buildApp, stopped on close. */
  jobs?: JobQueue;
  /** Defaults to the store the configuration describes (FILES_DIR or S3_BUCKET). */
  files?: FileStore;
  /** Defaults to PortOne when PORTONE_* is set, else the demo provider. */
  payments?: PaymentProvider;
}

/** Redis when REDIS_URL is set (its connection closes with the app), else the server's database. */
function rateLimitStore(app: FastifyInstance, { db, config }: Pick<AppDeps, 'db' | 'config'>): RateLimitStore {
  if (!config.REDIS_URL) return postgresRateLimitStore(db);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
  redis.on('error', (error) => app.log.error({ err: error }, 'Redis (rate limits) connection error'));
  app.addHook('onClose', async () => {
    await redis.quit();
  });
  return redisRateLimitStore(redis);
}

/**
 * Builds the container once per server, in the order the services need each other: each factory
 * takes the container built so far and reads its own settings from `config`. What holds a
 * connection or a process (Redis, the document pool) closes with `app`; the job queue and the mail
 * sender are started and stopped by buildApp.
 */
export function buildDeps(app: FastifyInstance, { db, config, ...given }: DepsOptions): AppDeps {
  const base = {
    db,
    config,
    clock: clock.now,
    log: app.log,
    llm: given.llm ?? createLlmRegistry({ config }),
    embedder: embedderFromConfig(config),
    store: given.files ?? createFileStore(config),
    payments: given.payments ?? paymentProviderFromConfig(config),
    links: appLinkSettings(config),
    demoMcp: given.demoMcp,
  };
  const outbound = createOutboundGuard(base);
  const rateLimits = rateLimitStore(app, base);
  const documents = createDocumentPool(base);
  app.addHook('onClose', () => documents.close());
  const jobs = given.jobs ?? createJobQueue(base);
  const mailTransport = createMailTransport(base);
  const core = { ...base, outbound, rateLimits, documents, jobs, mailTransport, limiter: createRateLimiter({ rateLimits }) };
  const mail = createMailOutbox(core);
  const auth = createAuthService(core);
  const services = { ...core, mail, auth };
  return {
    ...services,
    sms: createSmsService(services),
    signInDelays: createSignInDelays(services),
    oidc: createOidcAdapter(services),
    directory: createDirectoryAdapter(services),
    mcp: createMcpConnector(services),
    passwords: createPasswordService(services),
    guard: createInputGuard(services),
    sendTargets: createSendTargets(services),
    sources: createSources(services),
    fileContext: createFileContext(services),
    answers: createLiveAnswers(services),
    enqueueParse: defineFileJobs(services),
  };
}

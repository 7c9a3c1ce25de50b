import { z } from 'zod';
import { FILE_KINDS } from '../shared/domain/files';
import { outboundAllowEntryProblem } from './net/outboundGuard';

/** Environment flags arrive as text; accept the usual spellings and reject anything else. */
const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('.data/pglite'),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** Connections per server process (PostgreSQL). 20 streamed 200 concurrent chats faster than 10 (docs/ARCHITECTURE.md, Throughput). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(20),
  DEFAULT_TENANT: z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes').default('demo'),
  SEED_DEMO: envBoolean.default(true),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * How long a process reuses the tenant and member rows it read to authenticate a request. A change
   * made elsewhere (another process, the admin CLI, SQL) takes effect here within this window; 0 = no cache.
   */
  AUTH_CACHE_TTL_SECONDS: z.coerce.number().min(0).max(5).default(5),
  LLM_BASE_URL: optionalText.pipe(z.url().optional()),
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  /** OpenAI-compatible embeddings API (base URL ending in /v1): retrieval then ranks passages by vector similarity too. */
  EMBEDDING_BASE_URL: optionalText.pipe(z.url().optional()),
  EMBEDDING_MODEL: optionalText,
  EMBEDDING_API_KEY: optionalText,
  /** A SearXNG instance (its JSON API must be enabled) for web search in chat; SEARXNG_URL is accepted too. Without it web search is off. */
  SEARCH_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  SEARXNG_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Image model of the OpenAI-compatible API (images/generations); without it images come from the demo provider. */
  IMAGE_MODEL: optionalText,
  /** Credits one generated image costs (metered as its own usage row). */
  IMAGE_CREDITS: z.coerce.number().min(0).max(100_000).default(40),
  DEMO_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(5000).default(35),
  /** Sign-in attempts per client IP per minute, counted across all server processes. */
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  /** Calls of the OpenAI-compatible API per API key per minute, across all server processes. */
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  /** Verification-code requests and sign-up attempts per client IP per minute (each counted on its own). */
  SIGN_UP_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /**
   * Brute-force limits of accounts, each per AUTH_RATE_WINDOW_SECONDS: forgot-password requests per
   * email and per IP, reset confirmations per IP, and (SIGN_IN_EMAIL_RATE_LIMIT) current-password
   * attempts per member and temporary-password attempts per invitation. Every attempt counts.
   * Sign-in itself has growing delays instead (SIGN_IN_* below).
   */
  AUTH_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  SIGN_IN_EMAIL_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Wrong passwords per email before each further attempt waits 1 s, 2 s, 4 s… (only clients that failed themselves wait). */
  SIGN_IN_EMAIL_FREE_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  /** Wrong passwords per client IP (any email) before that client's attempts wait 1 s, 2 s, 4 s… */
  SIGN_IN_IP_FREE_FAILURES: z.coerce.number().int().min(1).max(10_000).default(20),
  /** The longest sign-in delay. */
  SIGN_IN_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Sign-in failures are forgotten this long after the last one (per email, per IP). */
  SIGN_IN_FAILURE_MEMORY_SECONDS: z.coerce.number().int().min(60).max(30 * 86_400).default(86_400),
  PASSWORD_RESET_EMAIL_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  PASSWORD_RESET_IP_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  /** How long a mailed forgot-password link works. */
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** The web app's origin as users reach it (links in mails); default http://localhost:PORT. Never taken from the request's Host header. */
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Client error reports (public log-error) per client IP per minute. */
  ERROR_LOG_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  /** Rate-limit counters in Redis instead of the database (redis:// or rediss://). */
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  /** Behind a load balancer: take the client IP (sign-in rate limit) from X-Forwarded-For, the protocol (HSTS) from X-Forwarded-Proto. */
  TRUST_PROXY: envBoolean.default(false),
  /** Set when the server sits behind HTTPS: the refresh cookie is marked Secure and every response carries HSTS. */
  COOKIE_SECURE: envBoolean.default(false),
  WEB_DIST_DIR: z.string().min(1).default('dist-web'),
  /** smtp://user:pass@host:587 or smtps://…; without it mail stays in the outbox table and goes to the server log. */
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().min(3).default('Chatbot Platform <no-reply@localhost>'),
  /** Sends of one mail at most (the first and its retries); then it is failed and logged. */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  /** Delay before a failed mail's first retry; each later one doubles, up to an hour. */
  MAIL_RETRY_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  /**
   * How long a mail claimed by a sender is left to it: after that another process sends it (its
   * sender died). One SMTP send is given up well within it.
   */
  MAIL_LEASE_SECONDS: z.coerce.number().min(2).max(3600).default(120),
  /** Where members' inquiries go when their tenant has no support address of its own. */
  SUPPORT_EMAIL: optionalText.pipe(z.email().optional()),
  /** Inquiries a member may send per hour (429 beyond). */
  INQUIRY_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /**
   * Sign-up codes by SMS through Twilio's Messages API when all three are set (TWILIO_API_BASE only
   * for a compatible gateway or tests); otherwise SMS go to the outbox in SMS_OUTBOX_DIR and the log.
   */
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM: optionalText,
  TWILIO_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.twilio.com'),
  SMS_OUTBOX_DIR: z.string().min(1).default('.data/sms-outbox'),
  /** Uploaded files on local disk (one server process); ignored when S3_BUCKET is set. */
  FILES_DIR: z.string().min(1).default('.data/files'),
  /** Any S3-compatible store, for several server processes sharing the files. */
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Address objects as endpoint/bucket/key (most self-hosted stores) rather than bucket.endpoint/key. */
  S3_FORCE_PATH_STYLE: envBoolean.default(false),
  /**
   * Chat file limits, the defaults for every tenant (a tenant's `file_limits` overrides them):
   * largest upload, most pages (PDF, slides) a document may have, and the kinds accepted.
   */
  FILE_MAX_MB: z.coerce.number().min(0.001).max(1024).default(20),
  FILE_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(500),
  FILE_ALLOWED_KINDS: z
    .string()
    .trim()
    .refine((v) => v.split(',').every((kind) => (FILE_KINDS as readonly string[]).includes(kind.trim())), `comma-separated, of ${FILE_KINDS.join(', ')}`)
    .default(FILE_KINDS.join(',')),
  /**
   * Uploaded documents are parsed in a pool of child processes (workers/documentPool.ts): at most
   * this many per server process, each with a heap of DOCUMENT_WORKER_MEMORY_MB, each parse limited
   * to DOCUMENT_PARSE_TIMEOUT_SECONDS; a document over either is refused (413 on upload, else a failed parse).
   */
  DOCUMENT_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  DOCUMENT_WORKER_MEMORY_MB: z.coerce.number().int().min(32).max(16_384).default(256),
  DOCUMENT_PARSE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
  /** Uploads per member: at most FILE_UPLOAD_LIMIT files in FILE_UPLOAD_WINDOW_MINUTES (429 beyond). */
  FILE_UPLOAD_LIMIT: z.coerce.number().int().min(1).default(30),
  FILE_UPLOAD_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  /** An upload with should_expire that no message ever carried is deleted this long after it arrived. */
  FILE_UNSENT_EXPIRY_HOURS: z.coerce.number().min(0.01).max(24 * 365).default(24),
  /** Background jobs this process runs at once; 0 = it only enqueues (other processes run them). */
  JOB_CONCURRENCY: z.coerce.number().int().min(0).max(100).default(4),
  JOB_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  /** How often jobs left by a dead process (stale heartbeat, past their time limit) are looked for. */
  JOB_SUPERVISE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  /** How long shutting down waits for running jobs before failing them over to a retry (counted from the signal, at most SHUTDOWN_TIMEOUT_SECONDS). */
  JOB_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /**
   * On SIGTERM/SIGINT, how long chat answers may go on streaming; then the rest are cut off (an
   * error frame, saved as interrupted with their text, credits settled) and the process exits.
   */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(20),
  /** How often a process writes the text of its streaming answers and renews their leases (one statement for all of them). */
  STREAM_FLUSH_SECONDS: z.coerce.number().min(0.05).max(60).default(2),
  /** How long a streaming answer stays its process's without a renewal; after that any process may sweep it (interrupted, credits settled). */
  STREAM_LEASE_SECONDS: z.coerce.number().min(0.2).max(3600).default(15),
  /** How often each process looks for streaming answers whose lease expired (their process died or lost the database). */
  STREAM_SWEEP_SECONDS: z.coerce.number().min(0.05).max(3600).default(10),
  /** PortOne V2 (card subscriptions): with the API secret, store id and channel key set, cards go through PortOne instead of the demo provider. */
  PORTONE_API_SECRET: optionalText,
  PORTONE_STORE_ID: optionalText,
  /** The channel (PG contract) the browser SDK issues billing keys on. */
  PORTONE_CHANNEL_KEY: optionalText,
  /** PortOne's browser SDK, loaded by the plans page when a card is registered; its origin joins the web CSP's script-src. */
  PORTONE_SDK_URL: z.url({ protocol: /^https?$/ }).default('https://cdn.portone.io/v2/browser-sdk.js'),
  /**
   * Origins the PortOne card window may frame on the web page (CSP frame-src, with PortOne on only):
   * PortOne's own hosts by default; add the PG's hosts if its window is framed from elsewhere.
   */
  PORTONE_FRAME_SOURCES: z
    .string()
    .trim()
    .transform((v) => v.split(',').map((source) => source.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i, 'comma-separated origins, e.g. https://*.example.com')))
    .default(['https://*.portone.io', 'https://*.iamport.co', 'https://*.iamport.kr']),
  /** The webhook secret (whsec_…) of the PortOne console; webhooks are refused without it. */
  PORTONE_WEBHOOK_SECRET: optionalText,
  PORTONE_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.portone.io'),
  /** How often due membership renewals are looked for and queued; 0 turns the sweep off (another process runs it). */
  BILLING_RENEWAL_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** How often the server looks for tenants whose credit period is due (monthly plan credit, lapsed grants); 0 = never. */
  CREDIT_PERIOD_CHECK_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  /** A member export still running this long after it was asked for fails as timed out (spec §8). */
  MEMBER_EXPORT_TIME_LIMIT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Member export files, and bulk-upload files once their task has finished, are deleted this long after the task finished. */
  MEMBER_EXPORT_RETENTION_HOURS: z.coerce.number().min(0.01).max(24 * 365).default(24),
  /** How often the server deletes task files past their retention; 0 = never (another process does it). */
  TASK_FILE_SWEEP_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  /**
   * Hosts, addresses and CIDR ranges (comma-separated) the server may reach on a tenant's behalf
   * although they are loopback, link-local or private: an SSO provider or directory on this machine
   * or in the company network. Everything else of that kind is refused (src/server/net/outboundGuard.ts).
   */
  OUTBOUND_ALLOW: z
    .string()
    .trim()
    .transform((v) => v.split(',').map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine((entry) => outboundAllowEntryProblem(entry) === null, 'comma-separated host names, addresses or CIDR ranges, e.g. idp.corp.example,10.0.0.0/8')))
    .default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});

export type ServerConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the server configuration from the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`Invalid server configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.LLM_BASE_URL && !config.LLM_MODEL) {
    throw new ConfigError('Invalid server configuration:\n  LLM_MODEL: required when LLM_BASE_URL is set');
  }
  if (config.EMBEDDING_BASE_URL && !config.EMBEDDING_MODEL) {
    throw new ConfigError('Invalid server configuration:\n  EMBEDDING_MODEL: required when EMBEDDING_BASE_URL is set');
  }
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid server configuration:\n  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  const portone = [config.PORTONE_API_SECRET, config.PORTONE_STORE_ID, config.PORTONE_CHANNEL_KEY].filter(Boolean).length;
  if (portone !== 0 && portone !== 3) {
    // Without the channel key the server could charge but the browser could never issue a billing key.
    throw new ConfigError('Invalid server configuration:\n  PORTONE_API_SECRET, PORTONE_STORE_ID, PORTONE_CHANNEL_KEY: set all three or none');
  }
  if (config.STREAM_LEASE_SECONDS < 3 * config.STREAM_FLUSH_SECONDS) {
    // A lease must outlive a couple of missed renewals, or a busy process would lose its own answers.
    throw new ConfigError('Invalid server configuration:\n  STREAM_LEASE_SECONDS: must be at least 3 × STREAM_FLUSH_SECONDS');
  }
  if (config.JOB_SHUTDOWN_TIMEOUT_SECONDS > config.SHUTDOWN_TIMEOUT_SECONDS) {
    throw new ConfigError('Invalid server configuration:\n  JOB_SHUTDOWN_TIMEOUT_SECONDS: must not exceed SHUTDOWN_TIMEOUT_SECONDS');
  }
  const twilio = [config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, config.TWILIO_FROM].filter(Boolean).length;
  if (twilio !== 0 && twilio !== 3) {
    throw new ConfigError('Invalid server configuration:\n  TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM: set all three or none');
  }
  return config;
}

/** A configuration for tests and tools: the defaults, overridden by the given values. */
export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...loadConfig({}), ...overrides };
}

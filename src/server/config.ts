import { z } from 'zod';
import { FILE_KINDS } from '../shared/domain/files';
import { outboundAllowEntryProblem } from './net/outboundGuard';

/** Environment flags arrive as text; accept the usual spellings and reject anything else. */
const envBoolean = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/**
 * Every setting, read from the environment. Each one's `.describe()` is its line in docs/OPERATIONS.md
 * "Settings" (`npm run docs:settings` writes the table; a test fails when it differs).
 */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000).describe('HTTP port (`0`: any free port, printed at start).'),
  HOST: z.string().min(1).default('0.0.0.0').describe('Listen address; `127.0.0.1` behind a local reverse proxy.'),
  DATA_DIR: z.string().min(1).default('.data/pglite').describe('PGlite database directory, created when missing; ignored when `DATABASE_URL` is set.'),
  DATABASE_URL: optionalText
    .pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional())
    .describe(
      'PostgreSQL connection string (`postgres://` or `postgresql://`; add `?sslmode=require` for TLS); replaces PGlite; required for several processes.',
    ),
  // 20 streamed 200 concurrent chats faster than 10 (docs/BENCHMARKS.md).
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .describe(
      'PostgreSQL connections per server process; keep processes × pool below the server’s `max_connections`. While a lost connection’s pool is replaced a process may briefly hold twice as many.',
    ),
  DEFAULT_TENANT: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes')
    .default('demo')
    .describe('Tenant of requests naming none (no `x-subdomain` header, no `subdomain` cookie); set it to your main tenant.'),
  SEED_DEMO: envBoolean.default(true).describe('Create the demo tenant, with published demo passwords, at start if missing; `false` in production.'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(86_400)
    .default(900)
    .describe('Access token lifetime; clients renew it with their refresh token.'),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30).describe('Refresh token lifetime; tokens rotate on every use.'),
  AUTH_CACHE_TTL_SECONDS: z.coerce
    .number()
    .min(0)
    .max(5)
    .default(5)
    .describe(
      'How long each process reuses a tenant’s and a member’s row, and whether a session is still alive (`0`: read them on every request). A member deactivated, a tenant closed or a session signed out by another process, the admin CLI or SQL is refused within this window (at once on the process that did it).',
    ),
  LLM_BASE_URL: optionalText
    .pipe(z.url().optional())
    .describe(
      'OpenAI-compatible API base (OpenAI, vLLM, Ollama, LM Studio, OpenRouter…) of models declared with `--provider openai-compatible`; unset: only the offline demo model answers.',
    ),
  LLM_API_KEY: optionalText.describe('Its API key.'),
  LLM_MODEL: optionalText.describe('The model id the demo tenant’s seeded models run on; required with `LLM_BASE_URL`.'),
  EMBEDDING_BASE_URL: optionalText
    .pipe(z.url().optional())
    .describe(
      'OpenAI-compatible embeddings API (base URL ending in `/v1`): retrieval then also ranks passages by vector similarity; unset: text rankings only.',
    ),
  EMBEDDING_MODEL: optionalText.describe('The embedding model id; required with `EMBEDDING_BASE_URL`.'),
  EMBEDDING_API_KEY: optionalText.describe('Its API key.'),
  SEARCH_URL: optionalText
    .pipe(z.url({ protocol: /^https?$/ }).optional())
    .describe(
      'A SearXNG instance whose JSON format is enabled, for web search in chat (5 results, 10 s timeout); unset: the composer’s web-search button is shown as unavailable.',
    ),
  SEARXNG_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()).describe('The same as `SEARCH_URL`, which wins when both are set.'),
  IMAGE_MODEL: optionalText.describe('Image model id on the OpenAI-compatible API (`images/generations`) for image mode; unset: demo PNGs drawn offline.'),
  IMAGE_CREDITS: z.coerce.number().min(0).max(100_000).default(40).describe('Credits one generated image costs (its own usage row; images are never free).'),
  DEMO_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(5000).default(35).describe('Pace of the demo model, per token.'),
  SIGN_IN_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe('Sign-in attempts (password and SSO), SSO’s verification steps and invitation acceptances, per client IP per minute, across all processes.'),
  API_KEY_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(60)
    .describe('Calls of the OpenAI-compatible API per API key per minute, across all processes (429 with `Retry-After` beyond).'),
  SIGN_UP_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe('Verification-code requests, and separately sign-up attempts, per client IP per minute.'),
  AUTH_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(900)
    .describe('Window of the account limits `SIGN_IN_EMAIL_RATE_LIMIT`, `PASSWORD_RESET_EMAIL_RATE_LIMIT` and `PASSWORD_RESET_IP_RATE_LIMIT`.'),
  SIGN_IN_EMAIL_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe(
      'Current-password attempts per member (change password) and temporary-password attempts per invitation, per window; sign-in itself has the delays below.',
    ),
  SIGN_IN_EMAIL_FREE_FAILURES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(5)
    .describe(
      'Wrong passwords per email (of a tenant) before each further attempt from a client that has failed itself waits 1 s, 2 s, 4 s… after the last failure (429 with `Retry-After`); a client with no failures recorded is never held back by it.',
    ),
  SIGN_IN_IP_FREE_FAILURES: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe('Wrong passwords per client IP (any email, any tenant) before that client’s attempts wait the same way.'),
  SIGN_IN_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900).describe('The longest sign-in delay.'),
  SIGN_IN_FAILURE_MEMORY_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400)
    .describe('Sign-in failures of an email or a client IP are forgotten this long after the last one.'),
  PASSWORD_RESET_EMAIL_RATE_LIMIT: z.coerce.number().int().min(1).default(5).describe('Forgot-password requests per email per window.'),
  PASSWORD_RESET_IP_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe('Forgot-password requests, and reset confirmations, per client IP per window.'),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(30).describe('How long a mailed password-reset link works (single use).'),
  PUBLIC_URL: optionalText
    .pipe(z.url({ protocol: /^https?$/ }).optional())
    .describe(
      'The web app’s origin as users reach it, for links in mail (password reset, invitations) and receipts; unset: `http://localhost:PORT`. Never taken from the request.',
    ),
  ERROR_LOG_RATE_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe('Client error reports (`log-error`) per client IP per minute, across all processes.'),
  REDIS_URL: optionalText
    .pipe(z.url({ protocol: /^rediss?$/ }).optional())
    .describe('`redis://` or `rediss://`: rate-limit counters and sign-in failures in Redis instead of the database.'),
  TRUST_PROXY: envBoolean.default(false).describe('Trust `X-Forwarded-For` (client IP, for rate limits) and `X-Forwarded-Proto` (HSTS) from a load balancer.'),
  COOKIE_SECURE: envBoolean.default(false).describe('Served over HTTPS: `Secure` refresh cookie and HSTS on every response.'),
  WEB_DIST_DIR: z
    .string()
    .min(1)
    .default('dist-web')
    .describe('Built web client to serve (relative to the working directory); without it only the API is served.'),
  SMTP_URL: optionalText
    .pipe(z.url({ protocol: /^smtps?$/ }).optional())
    .describe(
      '`smtp://user:password@host:587` or `smtps://…:465`; unset: mail is written to the log at `warn` and kept in the outbox table (`npm run admin -- list-outbox`).',
    ),
  MAIL_FROM: z.string().trim().min(3).default('Chatbot Platform <no-reply@localhost>').describe('Sender of every mail.'),
  MAIL_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(8)
    .describe('Sends of one mail at most (the first and its retries); then it is `failed` and logged at error.'),
  MAIL_RETRY_SECONDS: z.coerce
    .number()
    .min(0.1)
    .max(3600)
    .default(30)
    .describe('Delay before a failed mail’s first retry; each later one doubles, up to an hour.'),
  MAIL_LEASE_SECONDS: z.coerce
    .number()
    .min(2)
    .max(3600)
    .default(120)
    .describe('How long a mail claimed by a process’s sender is left to it; after that another process sends it. One SMTP send is given up within half of it.'),
  SUPPORT_EMAIL: optionalText
    .pipe(z.email().optional())
    .describe('Where members’ contact-modal inquiries go when their tenant has no support address of its own; unset: inquiries are only kept.'),
  INQUIRY_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5).describe('Inquiries a member may send per hour (429 beyond).'),
  TWILIO_ACCOUNT_SID: optionalText.describe(
    'Sign-up and SSO codes by SMS through Twilio’s Messages API: `TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN` and `TWILIO_FROM`, all three or none.',
  ),
  TWILIO_AUTH_TOKEN: optionalText.describe('See `TWILIO_ACCOUNT_SID`.'),
  TWILIO_FROM: optionalText.describe('The sending number (E.164); see `TWILIO_ACCOUNT_SID`.'),
  TWILIO_API_BASE: z
    .url({ protocol: /^https?$/ })
    .default('https://api.twilio.com')
    .describe('Another origin speaking the same API (a gateway, tests).'),
  SMS_OUTBOX_DIR: z.string().min(1).default('.data/sms-outbox').describe('Without Twilio: one JSON file per text message, also written to the log at `warn`.'),
  FILES_DIR: z
    .string()
    .min(1)
    .default('.data/files')
    .describe('Uploaded files on local disk (one process, or a shared file system); ignored when `S3_BUCKET` is set.'),
  S3_BUCKET: optionalText.describe('Keep files in this bucket of an S3-compatible store (several processes).'),
  S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()).describe('The store’s URL (MinIO, Ceph, R2…); unset means AWS S3.'),
  S3_REGION: z.string().trim().min(1).default('us-east-1').describe('Region requests are signed for.'),
  S3_ACCESS_KEY_ID: optionalText.describe(
    'Credentials, with `S3_SECRET_ACCESS_KEY`: both or neither (neither: the SDK’s default chain, e.g. an instance role).',
  ),
  S3_SECRET_ACCESS_KEY: optionalText.describe('See `S3_ACCESS_KEY_ID`.'),
  S3_FORCE_PATH_STYLE: envBoolean.default(false).describe('Address objects as `endpoint/bucket/key`, as most self-hosted stores need.'),
  FILE_MAX_MB: z.coerce
    .number()
    .min(0.001)
    .max(1024)
    .default(20)
    .describe(
      'Largest upload (chat files, chatbot documents), the default of every tenant (a tenant’s `file_limits` overrides it); larger is 413 `file_too_large`.',
    ),
  FILE_MAX_PAGES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(500)
    .describe(
      'Most pages (PDF pages, slides, a Word document’s recorded pages) an uploaded document may have, the default of every tenant; more is 413 `too_many_pages`.',
    ),
  FILE_ALLOWED_KINDS: z
    .string()
    .trim()
    .refine((v) => v.split(',').every((kind) => (FILE_KINDS as readonly string[]).includes(kind.trim())), `comma-separated, of ${FILE_KINDS.join(', ')}`)
    .default(FILE_KINDS.join(','))
    .describe('Comma-separated kinds accepted by upload, the default of every tenant (`text` = txt, csv, md, html); others are 415.'),
  DOCUMENT_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe('Parsing processes of this server process: documents read at once (upload checks, parse jobs, member spreadsheets); the others wait their turn.'),
  DOCUMENT_WORKER_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(32)
    .max(16_384)
    .default(256)
    .describe('V8 heap of each parsing process; a document needing more is refused (413 `file_too_large` on upload, else a failed parse).'),
  DOCUMENT_PARSE_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(0.1)
    .max(3600)
    .default(60)
    .describe('How long one document may be read once its process started it; longer is refused the same way.'),
  FILE_UPLOAD_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .default(30)
    .describe('Files a member may upload per `FILE_UPLOAD_WINDOW_MINUTES`, counted per file across all processes (429 beyond, with the counts in `details`).'),
  FILE_UPLOAD_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(10).describe('Window of `FILE_UPLOAD_LIMIT`.'),
  FILE_UNSENT_EXPIRY_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 365)
    .default(24)
    .describe('An upload with `should_expire` that no message carries and no chatbot lists is deleted (row and bytes) this long after it arrived.'),
  JOB_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(0)
    .max(100)
    .default(4)
    .describe(
      'Background jobs of each type this process runs at once; `0`: it only enqueues (API-only processes while others run the jobs) and does not run the mail sender either.',
    ),
  JOB_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(60).default(2).describe('How often an idle process looks for new jobs (and due mail).'),
  JOB_SUPERVISE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(15)
    .describe('How often jobs left by a dead process (stale heartbeat, past their time limit) are retried or failed.'),
  JOB_SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(10)
    .describe(
      'On SIGTERM/SIGINT, how long running jobs may finish before they are failed over to a retry; counted from the signal, at the same time as the chat streams, and at most `SHUTDOWN_TIMEOUT_SECONDS` (checked at start).',
    ),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(1)
    .max(3600)
    .default(20)
    .describe(
      'On SIGTERM/SIGINT, how long chat answers may go on streaming; then the rest are cut off (an error frame, saved as interrupted with their text, credits settled) and the process exits. Give the supervisor 15 s more (see "Stopping a server").',
    ),
  STREAM_FLUSH_SECONDS: z.coerce
    .number()
    .min(0.05)
    .max(60)
    .default(2)
    .describe('How often a process writes the text of the answers it streams and renews their leases: one statement for all of them.'),
  STREAM_LEASE_SECONDS: z.coerce
    .number()
    .min(0.2)
    .max(3600)
    .default(15)
    .describe(
      'How long a streaming answer stays its process’s without a renewal; at least 3 × `STREAM_FLUSH_SECONDS` (checked at start), so a busy process never loses its own answers.',
    ),
  STREAM_SWEEP_SECONDS: z.coerce
    .number()
    .min(0.05)
    .max(3600)
    .default(10)
    .describe(
      'How often each process saves streaming answers whose lease ran out as interrupted and settles their credits: an answer of a dead process is saved within `STREAM_LEASE_SECONDS` + `STREAM_SWEEP_SECONDS`.',
    ),
  PORTONE_API_SECRET: optionalText.describe(
    'Card subscriptions through PortOne V2: `PORTONE_API_SECRET`, `PORTONE_STORE_ID` and `PORTONE_CHANNEL_KEY`, all three or none (the offline demo provider, which takes test cards only).',
  ),
  PORTONE_STORE_ID: optionalText.describe('See `PORTONE_API_SECRET`.'),
  PORTONE_CHANNEL_KEY: optionalText.describe('The channel (PG contract) the browser SDK issues billing keys on; see `PORTONE_API_SECRET`.'),
  PORTONE_SDK_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://cdn.portone.io/v2/browser-sdk.js')
    .describe(
      'PortOne’s browser SDK, loaded by the plans page when a card is registered; its origin joins the web CSP’s `script-src` and `frame-src` (with PortOne only).',
    ),
  PORTONE_FRAME_SOURCES: z
    .string()
    .trim()
    .transform((v) =>
      v
        .split(',')
        .map((source) => source.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i, 'comma-separated origins, e.g. https://*.example.com')))
    .default(['https://*.portone.io', 'https://*.iamport.co', 'https://*.iamport.kr'])
    .describe(
      'Comma-separated origins PortOne’s card window may frame on the web page (CSP `frame-src`, with PortOne only); add your PG’s hosts if its window is framed from elsewhere.',
    ),
  PORTONE_WEBHOOK_SECRET: optionalText.describe(
    'The webhook secret (`whsec_…`) of the PortOne console; webhooks to `/api/v1/payments/webhooks/portone/` are refused (401) without it.',
  ),
  PORTONE_API_BASE: z
    .url({ protocol: /^https?$/ })
    .default('https://api.portone.io')
    .describe('Another origin speaking the same API (tests).'),
  BILLING_RENEWAL_SWEEP_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(600)
    .describe('How often due membership renewals are queued as jobs; `0` turns the sweep off on this process (another process runs it).'),
  CREDIT_PERIOD_CHECK_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1440)
    .default(60)
    .describe(
      'How often each process looks for tenants whose credit period is due (this month’s plan credit not granted, a grant past its validity not expired) and enqueues their `credit-period` jobs; `0` = never (another process does it).',
    ),
  MEMBER_EXPORT_TIME_LIMIT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(600)
    .describe('A member export still running this long after an admin asked for it fails as timed out (spec §8).'),
  MEMBER_TRANSFER_RETRY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(5)
    .describe('Delay before a member export or bulk upload whose run failed (its process died, the database was unreachable) runs again.'),
  MEMBER_EXPORT_RETENTION_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 365)
    .default(24)
    .describe(
      'Member export files, and bulk-upload files once their task has finished, are deleted this long after the task finished (a later download answers 404 `export_file_missing`).',
    ),
  TASK_FILE_SWEEP_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1440)
    .default(60)
    .describe('How often each process deletes task files past that retention; `0` = never (another process does it).'),
  OUTBOUND_ALLOW: z
    .string()
    .trim()
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .refine(
            (entry) => outboundAllowEntryProblem(entry) === null,
            'comma-separated host names, addresses or CIDR ranges, e.g. idp.corp.example,10.0.0.0/8',
          ),
      ),
    )
    .default([])
    .describe(
      'Comma-separated host names, addresses and CIDR ranges (`idp.corp.example,10.20.0.0/16,fd00::/8`) the server may connect to for a tenant although they are loopback, link-local, private or reserved (see "Outbound connections").',
    ),
  MCP_CONNECT_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(120)
    .default(10)
    .describe('The time a connection to a tenant’s MCP server has to answer (initialize and list its tools); past it the console shows `mcp_timeout`.'),
  TOOL_CALL_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(300)
    .default(30)
    .describe('The time one tool call of a chat answer has on its MCP server; past it the call is given up, shown as timed out, and the model is told so.'),
  DEMO_MCP_SERVER: envBoolean
    .default(true)
    .describe(
      'With `SEED_DEMO`, start the demo MCP server (a clock and a unit converter) on a free port of 127.0.0.1 only, registered in the demo tenant; `false`: not started (see "Demo MCP server").',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('warn')
    .describe('Log level; logs are JSON lines on stdout. `warn` shows the mail written to the log without `SMTP_URL`.'),
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

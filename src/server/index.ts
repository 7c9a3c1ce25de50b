/**
 * The server process (`npm start` runs its build, dist-server/index.js; `npm run dev` runs this
 * file in watch mode): read the configuration, open and migrate the database, seed the
 * demo tenant (unless SEED_DEMO=false), serve the API and the built web client on one port.
 */
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../shared/domain/http';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openPglite, openPostgres } from './db/client';
import { isConnectionLost } from './db/databaseErrors';
import { DEMO_ADMIN, DEMO_MEMBER, seedDemoTenant } from './db/seed';
import { startDemoMcpServer } from './mcp/demoServer';

const DEMO_TENANT = 'demo';
/** Past SHUTDOWN_TIMEOUT_SECONDS, time for the cut-off answers to be saved and the database closed. */
const SHUTDOWN_GRACE_SECONDS = 15;

async function main(): Promise<void> {
  const config = loadConfig();
  const database = config.DATABASE_URL ? await openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE) : await openPglite(config.DATA_DIR);
  if (config.SEED_DEMO) {
    await seedDemoTenant(database.db, { subdomain: DEMO_TENANT, tenantName: 'Demo Workspace', openAiCompatibleModel: config.LLM_MODEL, publicChatbot: true });
  }
  // On 127.0.0.1 only, so nothing outside this machine reaches it (docs/OPERATIONS.md "Demo MCP server").
  const demoMcp = config.SEED_DEMO && config.DEMO_MCP_SERVER ? await startDemoMcpServer() : undefined;
  const app = await buildApp({
    db: database.db,
    config,
    logger: { level: config.LOG_LEVEL },
    webRoot: config.WEB_DIST_DIR,
    ...(demoMcp ? { demoMcp: { url: demoMcp.url, tenant: DEMO_TENANT } } : {}),
  });
  if (demoMcp) app.addHook('onClose', () => demoMcp.close());
  await app.listen({ port: config.PORT, host: config.HOST });

  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  // The bound port, not the configured one: PORT=0 picks a free port (tests start the build that way).
  const { port } = app.server.address() as AddressInfo;
  const url = `http://${shownHost}:${port}`;
  const lines = [
    '',
    `  Chatbot platform server on ${url}`,
    `  API ${url}${API_PREFIX}  (OpenAPI: ${url}${API_PREFIX}/openapi.json)`,
    `  Database: ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.DATA_DIR}`}`,
    `  Mail: ${config.SMTP_URL ? `SMTP at ${new URL(config.SMTP_URL).host}` : 'kept in the outbox table and the log (set SMTP_URL to send)'}`,
    `  Files: ${config.S3_BUCKET ? `S3 bucket ${config.S3_BUCKET}${config.S3_ENDPOINT ? ` at ${config.S3_ENDPOINT}` : ''}` : `local disk in ${config.FILES_DIR}`}`,
    `  LLM: ${config.LLM_BASE_URL ? `OpenAI-compatible ${config.LLM_MODEL} at ${config.LLM_BASE_URL}` : 'built-in demo model (set LLM_BASE_URL, LLM_API_KEY, LLM_MODEL for a real one)'}`,
  ];
  if (config.SEED_DEMO) {
    lines.push(
      `  Demo tenant "${DEMO_TENANT}":`,
      `    admin   ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`,
      `    member  ${DEMO_MEMBER.email} / ${DEMO_MEMBER.password}`,
      `  Demo MCP server: ${demoMcp ? `${demoMcp.url} (this machine only; DEMO_MCP_SERVER=false turns it off)` : 'off (DEMO_MCP_SERVER)'}`,
    );
  }
  console.log(`${lines.join('\n')}\n`);

  const shutdown = async (signal: string) => {
    console.log(`${signal}: shutting down (chat answers may stream for ${config.SHUTDOWN_TIMEOUT_SECONDS} s)`);
    // Closing lets streams and jobs run until their deadlines, then saves the cut-off answers; should
    // anything still hang (a database that stopped answering), the process goes anyway.
    setTimeout(
      () => {
        console.error(`${signal}: not closed ${SHUTDOWN_GRACE_SECONDS} s after the shutdown deadline; exiting`);
        process.exit(1);
      },
      (config.SHUTDOWN_TIMEOUT_SECONDS + SHUTDOWN_GRACE_SECONDS) * 1000,
    ).unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  // postgres-js (3.4.9) can reject a query promise nobody awaits any more when the database ends its
  // connection while a retry or a pool replacement has moved on (seen under pg_terminate_backend;
  // docs/decisions/0012-lost-connection-retry.md): that must not end a process serving every tenant.
  // Any other unhandled rejection is a bug and still ends the process.
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionLost(reason)) throw reason;
    app.log.error({ err: reason }, 'a database connection was lost under a statement nobody waited for any more');
  });
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

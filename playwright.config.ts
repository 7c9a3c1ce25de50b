import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemChromium } from './scripts/optionalServices.mjs';

/**
 * End-to-end tests drive Chromium against the built web client served by the real server on a
 * fresh PGlite directory, or on a fresh PostgreSQL database (E2E_DATABASE_URL). A Chromium on PATH
 * is used where present (Debian's: no browser download here), preferably its headless shell: the full browser in headless mode draws a window's own
 * interface for every test's new context (the shell took 18% less CPU over three specs). Elsewhere
 * Playwright's own Chromium, which `npm test` downloads when it is missing.
 */
// Workers load this file again: they inherit the runner's port and directories instead of making
// their own, so specs reach the same server and read the mail it sent (tests/e2e/mailbox.ts). The
// port is a free one unless E2E_PORT names it, with the two after it free too.
const port = Number(
  (process.env.E2E_PORT ??= execFileSync(process.execPath, [join(import.meta.dirname, 'scripts/freePorts.mjs')], { encoding: 'utf8' }).trim()),
);
const dataDir = (process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'e2e-data-')));
const mailboxDir = (process.env.E2E_MAILBOX_DIR ??= `${dataDir}-mailbox`);
// The server's mail goes over SMTP to a sink on this port, which keeps it in mailboxDir.
const smtpPort = port + 2;

export default defineConfig({
  // `e2e`: the web build in Chromium. `desktop`: the desktop build, its main run in Node under an
  // adapter of Electron (tests/desktop/harness); it needs the keychain, so `npm test` runs it in a
  // D-Bus session with gnome-keyring (scripts/test.mjs).
  projects: [
    { name: 'e2e', testDir: 'tests/e2e' },
    // Its screenshots of each screen (1440 and 375 px, English and Korean) are kept in its output folder.
    { name: 'desktop', testDir: 'tests/desktop', outputDir: 'test-results/desktop' },
  ],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A failed test keeps one screenshot of where it stopped. Traces are asked for (`--trace
    // retain-on-failure`, or E2E_TRACE=1): recording one for every test, kept or not, took a third of
    // the Playwright worker's CPU and more of the page's (docs/decisions/0074-end-to-end-cpu.md).
    trace: process.env.E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || systemChromium(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  webServer: [
    {
      command: 'node --import tsx tests/fixtures/smtpSinkProcess.ts',
      port: smtpPort,
      reuseExistingServer: false,
      env: { SMTP_SINK_PORT: String(smtpPort), SMTP_SINK_DIR: mailboxDir },
    },
    {
      // `npm test` builds the server once for both parts (E2E_SERVER_BUILT): a build empties dist-server first.
      command: process.env.E2E_SERVER_BUILT ? 'node dist-server/index.js' : 'npm run server',
      url: `http://127.0.0.1:${port}/api/v1/tenants/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        // A database of its own on PostgreSQL when `npm test` made one (part 1), else PGlite in DATA_DIR.
        DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FILES_DIR: join(dataDir, 'files'),
        DEMO_TOKEN_DELAY_MS: process.env.DEMO_TOKEN_DELAY_MS ?? '15',
        SIGN_IN_RATE_LIMIT: '1000',
        SIGN_IN_EMAIL_RATE_LIMIT: '1000',
        // tests/e2e/admin-members.spec.ts signs up several requesters within a minute.
        SIGN_UP_RATE_LIMIT: '1000',
        SMTP_URL: `smtp://mailer:secret@127.0.0.1:${smtpPort}`,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ERROR_LOG_RATE_LIMIT: '1000',
        // The fake SearXNG that tests/e2e/web-search.spec.ts starts on the next port while it runs.
        SEARCH_URL: `http://127.0.0.1:${port + 1}`,
        // tests/e2e/sso.spec.ts runs its OpenID Connect provider and slapd on loopback, which the
        // outbound guard refuses unless the operator allows it.
        OUTBOUND_ALLOW: '127.0.0.0/8,::1',
      },
    },
  ],
});

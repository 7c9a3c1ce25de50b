import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { test as base, expect, type Page } from '@playwright/test';
import { APP_ID } from '../../src/main/appIdentity';
import { keychainServiceName } from '../../src/main/keychain/secretStore';
import { startDesktopApp, type DesktopApp } from './harness/desktopApp';
import { toBrowserUrl } from './harness/electronAdapter';
import { ADMIN, MEMBER } from '../e2e/support';

/** The server of the run (playwright.config.ts starts it); the desktop app is pointed at it on first run. */
export const SERVER_ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT}`;
export const API_BASE = `${SERVER_ORIGIN}/api/v1`;
/** The same server under another name: to the app, another server (another origin, another keychain entry). */
export const OTHER_API_BASE = `${SERVER_ORIGIN.replace('127.0.0.1', 'localhost')}/api/v1`;
export { ADMIN, MEMBER };

/** The keychain service main keeps a server's session under (the default workspace). */
export const keychainService = (apiBase: string) => keychainServiceName(APP_ID, apiBase, null);
export const storedTokens = async (apiBase: string) => ({
  accessToken: await keytar.getPassword(keychainService(apiBase), 'access-token'),
  refreshToken: await keytar.getPassword(keychainService(apiBase), 'refresh-token'),
});

/** A route of the app, as main's loadURL would open it. */
export const appUrl = (path: string) => toBrowserUrl(`app://bundle${path}`);

export interface Launch {
  /**
   * Starts the app on `userData` (a fresh folder unless given: a first run), or on a fresh folder
   * whose setup was confirmed for `configuredFor` (an API base).
   */
  (options?: { userData?: string; configuredFor?: string }): Promise<DesktopApp & { userData: string }>;
}

interface Fixtures {
  launch: Launch;
  /** The pages the "system browser" opened for `shell.openExternal`, in order. */
  systemBrowser: { opened: Page[]; next(): Promise<Page>; open(url: string): Promise<void> };
}

/** The keychain must work: these specs are about where tokens live (npm test runs them in a D-Bus session with gnome-keyring). */
async function checkKeychain(): Promise<void> {
  const service = `${APP_ID}/desktop-harness-probe-${process.pid}`;
  try {
    await keytar.setPassword(service, 'probe', 'probe');
    await keytar.deletePassword(service, 'probe');
  } catch (error) {
    throw new Error(`The desktop specs need an OS keychain (on Linux: gnome-keyring in a D-Bus session, as npm test runs them): ${String(error)}`);
  }
}

/**
 * The server of this project serves only these specs: its announcement popup is switched off once,
 * so it does not cover the screens under test (the web specs test it).
 */
async function switchOffAnnouncements(): Promise<void> {
  const signedIn = await fetch(`${API_BASE}/auth/sign-in/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
    body: JSON.stringify(ADMIN),
  });
  const headers = { 'content-type': 'application/json', 'x-access-token': ((await signedIn.json()) as { access_token: string }).access_token };
  const { items } = (await (await fetch(`${API_BASE}/admin/announcements/?size=100`, { headers })).json()) as { items: { id: number; is_active: boolean }[] };
  for (const { id } of items.filter((item) => item.is_active)) {
    const response = await fetch(`${API_BASE}/admin/announcements/${id}/`, { method: 'PATCH', headers, body: JSON.stringify({ is_active: false }) });
    expect(response.ok).toBe(true);
  }
}

export const test = base.extend<Fixtures, { prepared: void }>({
  prepared: [
    async ({}, provide) => {
      await checkKeychain();
      await switchOffAnnouncements();
      await provide();
    },
    { scope: 'worker', auto: true },
  ],

  systemBrowser: async ({ browser }, provide) => {
    // The operating system's browser: a profile of its own, apart from the app's session.
    const context = await browser.newContext();
    const opened: Page[] = [];
    let taken = 0;
    const open = async (url: string) => {
      const page = await context.newPage();
      opened.push(page);
      await page.goto(url);
    };
    const next = async () => {
      await expect.poll(() => opened.length, { message: 'the app opens the system browser' }).toBeGreaterThan(taken);
      return opened[taken++]!;
    };
    await provide({ opened, next, open });
    await context.close();
  },

  launch: async ({ browser, systemBrowser }, provide) => {
    const started: DesktopApp[] = [];
    const folders: string[] = [];
    // An uncaught error in any window fails the test: a user would meet it as a broken screen.
    const pageErrors: string[] = [];
    const freshFolder = () => {
      const folder = mkdtempSync(join(tmpdir(), 'desktop-user-data-'));
      folders.push(folder);
      return folder;
    };
    await provide(async ({ userData = freshFolder(), configuredFor } = {}) => {
      if (configuredFor) writeFileSync(join(userData, 'settings.json'), JSON.stringify({ apiBase: configuredFor, subdomain: null, configured: true }));
      const app = await startDesktopApp({ browser, userData, workArea: { x: 0, y: 0, width: 1920, height: 1080 }, openExternal: systemBrowser.open });
      started.push(app);
      const context = await app.adapter.context();
      const watch = (page: Page) => page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      context.pages().forEach(watch);
      context.on('page', watch);
      return Object.assign(app, { userData });
    });
    for (const app of started) await app.quit().catch(() => undefined);
    // The keychain outlives the app, as on a real machine: the next test starts without a session.
    for (const apiBase of [API_BASE, OTHER_API_BASE])
      for (const account of ['access-token', 'refresh-token']) await keytar.deletePassword(keychainService(apiBase), account);
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    expect(pageErrors, 'uncaught errors in the app windows').toEqual([]);
  },
});

export { expect };

import { ADMIN, API_BASE, type Launch, MEMBER, OTHER_API_BASE, SERVER_ORIGIN, appUrl, expect, storedTokens, test } from './fixtures';
import { checkScreen, expectTokensOutOfPage, rememberedBounds } from './support';
import { showInLanguage } from '../e2e/support';
import type { Page } from '@playwright/test';
import type { Bridge } from '../../src/shared/ipc/contract';

/**
 * The desktop app as a member gets it, end to end: the built main bundle under the harness
 * (tests/desktop/harness), the desktop build of the renderer, the preload's bridge, the real server
 * and the real keychain. Each test covers several steps of one user's day (each well within the time
 * limit of a test, so a busy machine keeps them green).
 */

/** A long question makes the demo model's answer (which quotes it) long enough to stop mid-stream. */
const LONG_QUESTION =
  'Please explain, step by step and in plain words, how a streamed answer travels from the model through the server to this chat window and why it is batched';

async function signIn(page: Page, account: { email: string; password: string }) {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('new-chat')).toBeVisible();
}

/** Whether the server still accepts a refresh token (it revokes it on sign-out). */
async function refreshAccepted(refreshToken: string): Promise<boolean> {
  const response = await fetch(`${API_BASE}/auth/refresh/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return response.ok;
}

/** The app configured for the server, signed in as the admin; the tokens main holds so far. */
async function signedInApp(launch: Launch) {
  const app = await launch({ configuredFor: API_BASE });
  const page = await app.mainWindow();
  await signIn(page, ADMIN);
  const tokens = await storedTokens(API_BASE);
  return { app, page, seen: new Set([tokens.accessToken!, tokens.refreshToken!]) };
}

test('first run: setup, sign-in with the tokens in the keychain only, a stopped stream, an upload with progress', async ({ launch }) => {
  const app = await launch();
  const page = await app.mainWindow();

  // First run: main opens the setup route; the server chosen there is kept by main.
  await expect(page).toHaveURL(appUrl('/setup'));
  await page.getByLabel('Server address').fill(API_BASE);
  await checkScreen(page, 'setup');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await checkScreen(page, 'sign-in');

  // Sign-in goes through main: both tokens land in the keychain, none in the page.
  await signIn(page, ADMIN);
  const first = await storedTokens(API_BASE);
  expect(first.accessToken).toBeTruthy();
  expect(first.refreshToken).toBeTruthy();
  const seen = new Set([first.accessToken!, first.refreshToken!]);

  // A streamed chat proxied by main, stopped mid-answer.
  const composer = page.getByTestId('composer-input');
  await composer.fill(LONG_QUESTION);
  await composer.press('Enter');
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toContainText('Demo model');
  await page.getByTestId('stop-button').click();
  await expect(page.getByTestId('chatbot-message').last().getByTestId('interrupted-badge')).toHaveText('Stopped');
  expect(app.adapter.sent.filter((event) => event.channel === 'chat:stream').length).toBeGreaterThan(1);
  await checkScreen(page, 'chat');

  // An upload with progress: main sends the body in chunks and tells the window how far it got.
  const text = `Launch notes.\n${'The launch is on 3 March and the budget is approved. '.repeat(6000)}`;
  await page.getByTestId('attach-input').setInputFiles({ name: 'launch-notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  const chip = page.getByTestId('attachment-chip').filter({ hasText: 'launch-notes.txt' });
  await expect(chip).toContainText('Ready', { timeout: 20_000 });
  const uploads = app.adapter.sent.flatMap(({ channel, payload }) =>
    channel === 'http:progress' && (payload as { direction: string }).direction === 'upload' ? [payload as { loaded: number; total: number }] : [],
  );
  expect(uploads.length).toBeGreaterThan(1);
  expect(uploads.at(-1)!.loaded).toBe(uploads.at(-1)!.total);
  expect(uploads[0]!.loaded).toBeLessThan(uploads[0]!.total);
  await expectTokensOutOfPage(page, app, [...seen]);
});

test('signed in: the admin console in a window of its own, in English and Korean; the way out is the system browser; a page main did not open gets no answer', async ({
  launch,
  systemBrowser,
}) => {
  const { app, page, seen } = await signedInApp(launch);
  // The admin console opens in a window of its own, which main trusts as it does the first.
  await page.getByTestId('admin-button').click();
  const console_ = await app.nextWindow();
  await expect(console_).toHaveURL(appUrl('/admin'));
  await expect(console_.getByRole('heading', { level: 1 })).toBeVisible();
  await checkScreen(console_, 'admin-console');
  await console_.close();
  await expectTokensOutOfPage(page, app, [...seen]);

  // The same screens in Korean (the language is the page's, kept across the app's windows).
  await showInLanguage(page, 'ko');
  await expect(page.getByTestId('new-chat')).toBeVisible();
  await checkScreen(page, 'chat');
  await page.getByTestId('admin-button').click();
  const consoleKo = await app.nextWindow();
  await expect(consoleKo.getByRole('heading', { level: 1 })).toBeVisible();
  await checkScreen(consoleKo, 'admin-console');
  await consoleKo.close();
  await showInLanguage(page, 'en');

  // The window never leaves the app: main turns a navigation out into the system browser.
  const here = page.url();
  await page.evaluate((url) => (globalThis as unknown as { location: { assign(to: string): void } }).location.assign(url), `${SERVER_ORIGIN}/outside`);
  await expect(await systemBrowser.next()).toHaveURL(`${SERVER_ORIGIN}/outside`);
  expect(page.url()).toBe(here);
  // …and so does a new window the page asks for, which main denies.
  await page.evaluate((url) => (globalThis as unknown as { open(to: string): unknown }).open(url), `${SERVER_ORIGIN}/popup`);
  await expect(await systemBrowser.next()).toHaveURL(`${SERVER_ORIGIN}/popup`);
  await expect.poll(async () => (await app.adapter.context()).pages().length).toBe(1);
  // A page main did not open (another webContents) gets no answer, even showing the app's own page.
  const stranger = await (await app.adapter.context()).newPage();
  await stranger.goto(appUrl('/setup'));
  await expect(stranger.evaluate(() => (globalThis as unknown as { bridge: Bridge }).bridge.settings.get())).rejects.toThrow(/not this app's page/);
  await stranger.close();
});

test('a restart keeps the window, the server and the session; another server signs out first; sign-out clears the keychain', async ({ launch }) => {
  const { app, page, seen } = await signedInApp(launch);
  // A restart: main remembers the window's size and the server, and the keychain the session.
  await page.setViewportSize({ width: 1100, height: 720 });
  await app.quit();
  await expect.poll(() => rememberedBounds(app.userData, 'main')).toMatchObject({ width: 1100, height: 720 });
  const again = await launch({ userData: app.userData });
  const restarted = await again.mainWindow();
  await expect(restarted.getByTestId('new-chat')).toBeVisible();
  expect(restarted.viewportSize()).toEqual({ width: 1100, height: 720 });
  await expect(restarted).not.toHaveURL(/\/setup$/);

  // Another server while signed in: main signs out of the first one before switching.
  const before = await storedTokens(API_BASE);
  seen.add(before.accessToken!).add(before.refreshToken!);
  await restarted.goto(appUrl('/setup'));
  await restarted.getByLabel('Server address').fill(OTHER_API_BASE);
  await restarted.getByRole('button', { name: 'Save and continue' }).click();
  await expect(restarted.getByLabel('Email')).toBeVisible();
  expect(await storedTokens(API_BASE)).toEqual({ accessToken: null, refreshToken: null });
  expect(await refreshAccepted(before.refreshToken!)).toBe(false);

  // Signed in there, then out: sign-out clears that server's keychain entry.
  await signIn(restarted, MEMBER);
  const other = await storedTokens(OTHER_API_BASE);
  expect(other.refreshToken).toBeTruthy();
  seen.add(other.accessToken!).add(other.refreshToken!);
  await expectTokensOutOfPage(restarted, again, [...seen]);
  await restarted.getByRole('button', { name: 'Sign out' }).click();
  await expect(restarted.getByLabel('Email')).toBeVisible();
  expect(await storedTokens(OTHER_API_BASE)).toEqual({ accessToken: null, refreshToken: null });
  await showInLanguage(restarted, 'ko');
  await checkScreen(restarted, 'sign-in');
  await restarted.goto(appUrl('/setup'));
  await checkScreen(restarted, 'setup');
});

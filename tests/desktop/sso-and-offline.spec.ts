import { createServer } from 'node:net';
import type { Page } from '@playwright/test';
import { OIDC_CLIENT, startOidcProvider, type OidcProviderFixture } from '../fixtures/oidcProvider';
import { ADMIN, API_BASE, MEMBER, appUrl, expect, storedTokens, test } from './fixtures';
import { checkScreen, expectTokensOutOfPage } from './support';

let provider: OidcProviderFixture;
let platformId: number;
let adminToken: string;

const adminCall = (path: string, method: string, body?: object) =>
  fetch(`${API_BASE}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-access-token': adminToken },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

test.beforeAll(async () => {
  // A native client (RFC 8252): the provider accepts main's loopback redirect on whatever port it took.
  provider = await startOidcProvider(['http://127.0.0.1/sso/callback'], { native: true });
  const signedIn = await fetch(`${API_BASE}/auth/sign-in/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
    body: JSON.stringify(ADMIN),
  });
  adminToken = ((await signedIn.json()) as { access_token: string }).access_token;
  const created = await adminCall('/admin/sso-platforms/', 'POST', {
    sso_platform_name: 'Company portal',
    settings: { kind: 'oidc', issuer: provider.issuer, client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret },
  });
  expect(created.ok).toBe(true);
  platformId = ((await created.json()) as { id: number }).id;
});

test.afterAll(async () => {
  if (platformId) await adminCall(`/admin/sso-platforms/${platformId}/`, 'DELETE');
  await provider?.close();
});

/** The provider's development pages in the system browser: a login name, then consent (skipped when remembered). */
async function signInAtProvider(browserPage: Page, login: string) {
  const loginField = browserPage.getByPlaceholder('Enter any login');
  const consent = browserPage.getByRole('button', { name: 'Continue' });
  await expect(loginField.or(consent).or(browserPage.getByText('You can close this tab'))).toBeVisible();
  if (await loginField.isVisible()) {
    await loginField.fill(login);
    await browserPage.getByPlaceholder('and password').fill('any-password');
    await browserPage.getByRole('button', { name: 'Sign-in' }).click();
  }
  if (await consent.isVisible().catch(() => false)) await consent.click();
}

test('SSO through the system browser: connect the portal on My page, then sign in with it; the tokens stay in main', async ({ launch, systemBrowser }) => {
  const login = `desk${Date.now()}`;
  const app = await launch({ configuredFor: API_BASE });
  const page = await app.mainWindow();
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('new-chat')).toBeVisible();

  // Connecting opens the provider in the system browser; its redirect reaches main's loopback listener.
  await page.goto(appUrl('/dashboard/my-page'));
  const section = page.getByTestId('sso-account');
  await section.getByRole('button', { name: 'Connect Company portal' }).click();
  const browserPage = await systemBrowser.next();
  await expect(browserPage).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await signInAtProvider(browserPage, login);
  // Main's loopback listener answered the provider's redirect: the browser tells the user to go back.
  await expect(browserPage).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/sso\/callback\?/);
  await expect(browserPage.getByText('You can close this tab')).toBeVisible();
  await expect(section).toContainText('Connected to Company portal');
  await checkScreen(page, 'my-page-sso');

  // Signed out, the portal signs the member in again through the system browser.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(storedTokens(API_BASE)).resolves.toEqual({ accessToken: null, refreshToken: null });
  const portal = page.getByRole('button', { name: 'Sign in with Company portal' });
  await expect(portal).toBeVisible();
  await checkScreen(page, 'sign-in-sso');
  await portal.click();
  await signInAtProvider(await systemBrowser.next(), login);
  await expect(page.getByTestId('new-chat')).toBeVisible();
  const tokens = await storedTokens(API_BASE);
  expect(tokens.refreshToken).toBeTruthy();
  await expectTokensOutOfPage(page, app, [tokens.accessToken!, tokens.refreshToken!]);

  // Disconnected again, so the demo member stays as the other specs expect.
  await page.goto(appUrl('/dashboard/my-page'));
  await section.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(section).toContainText('Connect an SSO account');
  await page.getByRole('button', { name: 'Sign out' }).click();
});

test('offline: a server that does not answer gets a clear message, and the app works again once it does', async ({ launch }) => {
  // A loopback port nothing listens on.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));

  const app = await launch({ configuredFor: `http://127.0.0.1:${port}/api/v1` });
  const page = await app.mainWindow();
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: /server|connect|network/i });
  await expect(alert.first()).toBeVisible();
  await checkScreen(page, 'offline');

  // The server settings, reached from the sign-in page, point the app at one that answers.
  await page.getByRole('link', { name: 'Server settings' }).click();
  await page.getByLabel('Server address').fill(API_BASE);
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByLabel('Password', { exact: true }).fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('new-chat')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
});

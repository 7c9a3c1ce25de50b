import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mailbox } from './mailbox';
import { OIDC_CLIENT, startOidcProvider, type OidcProviderFixture } from '../fixtures/oidcProvider';
import { DIRECTORY_ADMIN, DIRECTORY_BASE, hasSlapd, startSlapd, type Slapd } from '../fixtures/slapd';
import { MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn, skipAnnouncementPopup } from './support';
import { expectAccessibleOnPhone } from './screens';

/**
 * SSO through the real pieces: an OpenID Connect provider (oidc-provider, its development login
 * page) and an OpenLDAP slapd, both on loopback for this spec only; the platforms are added through
 * the admin API and removed again, so other specs see a sign-in page without SSO.
 */
const port = Number(process.env.E2E_PORT);
const CALLBACK = `http://127.0.0.1:${port}/auth/sso/callback`;

let provider: OidcProviderFixture;
let directory: Slapd | undefined;
const platformIds: number[] = [];

async function addPlatform(request: APIRequestContext, body: object): Promise<number> {
  const response = await request.post('/api/v1/admin/sso-platforms/', { headers: await adminHeaders(request), data: body });
  expect(response.ok()).toBe(true);
  const { id } = (await response.json()) as { id: number };
  platformIds.push(id);
  return id;
}

test.beforeAll(async ({ request }) => {
  provider = await startOidcProvider([CALLBACK]);
  await addPlatform(request, {
    sso_platform_name: 'Company portal',
    settings: { kind: 'oidc', issuer: provider.issuer, client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret },
  });
  if (!hasSlapd) return;
  directory = await startSlapd([{ uid: 'lin', password: 'Directory!9', name: 'Lin Huiyin', email: 'lin@example.test' }]);
  await addPlatform(request, {
    sso_platform_name: 'Staff directory',
    settings: {
      kind: 'directory',
      url: directory.url,
      bind_dn: DIRECTORY_ADMIN.dn,
      bind_password: DIRECTORY_ADMIN.password,
      search_base: DIRECTORY_BASE,
      user_id_attribute: 'uid',
      email_attribute: 'mail',
      name_attribute: 'cn',
      phone_attribute: '',
    },
  });
});

test.afterAll(async ({ request }) => {
  const headers = await adminHeaders(request);
  for (const id of platformIds) await request.delete(`/api/v1/admin/sso-platforms/${id}/`, { headers });
  await provider?.close();
  await directory?.close();
});

/** The provider's development pages: any login name, then consent; back to the app afterwards. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('OpenID Connect: a new person signs up through the portal, is approved, then signs in with one click', async ({ page, request }) => {
  const login = `ada${Date.now()}`;
  await page.goto('/auth');
  const portal = page.getByRole('button', { name: 'Sign in with Company portal' });
  await expect(portal).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/sso-sign-in.png' });
  await portal.click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}`));
  await signInAtProvider(page, login);

  // Back in the app with an identity nobody has yet: the sign-up form, without email, password or code.
  await expect(page).toHaveURL(/\/auth\/sign-up$/);
  await expect(page.getByTestId('sso-sign-up-notice')).toContainText(`${login}@example.test`);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(login.charAt(0).toUpperCase() + login.slice(1));
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Department', exact: true }).fill('Research');
  await page.getByRole('button', { name: 'Read Terms of service' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms of service' });
  await terms.getByRole('region').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await terms.getByRole('button', { name: 'I agree' }).click();
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/sso-sign-up.png' });
  const answer = page.waitForResponse((response) => response.url().endsWith('/auth/sso-sign-up/'));
  await page.getByRole('button', { name: 'Create account' }).click();
  const { member_id: memberId } = (await (await answer).json()) as { member_id: number };
  await expect(page.getByTestId('sign-up-outcome')).toContainText('Request sent');

  // An administrator approves (API until the requests screen exists); then one click signs in.
  const approved = await request.post(`/api/v1/admin/members/${memberId}/process-pending-request/`, {
    headers: await adminHeaders(request),
    data: { approve: true },
  });
  expect(approved.ok()).toBe(true);
  await skipAnnouncementPopup(page);
  // A browser without the provider's session: the member signs in there again.
  await page.context().clearCookies();
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign in with Company portal' }).click();
  await signInAtProvider(page, login);
  await expect(page).toHaveURL(/\/dashboard\/chat/);
  await expect(page.getByTestId('nav-my-page')).toBeVisible();
});

test('a member connects the portal on My page, then signs in with it in one click; disconnects again', async ({ page }) => {
  const login = `member${Date.now()}`;
  await signIn(page, MEMBER, { to: '/dashboard/my-page' });
  const section = page.getByTestId('sso-account');
  await section.getByRole('button', { name: 'Connect Company portal' }).click();
  await signInAtProvider(page, login);
  await expect(page).toHaveURL(/\/dashboard\/my-page$/);
  await expect(section).toContainText('Connected to Company portal');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/sso-my-page.png' });

  // Signed out (cookies of the app and of the provider gone), the portal signs the member in.
  await page.context().clearCookies();
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign in with Company portal' }).click();
  await signInAtProvider(page, login);
  await expect(page).toHaveURL(/\/dashboard\/chat/);
  await page.goto('/dashboard/my-page');
  await expect(page.getByTestId('my-page-email')).toHaveText(MEMBER.email);

  // Disconnected, so the demo member stays as other specs expect.
  await section.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(section).toContainText('Connect an SSO account');
});

test('directory: user ID and password checked by the directory, then a mailed code; a new person signs up and is signed in', async ({ page, request }) => {
  test.skip(!directory, 'Debian slapd is not installed');
  // With auto-approval the new account signs in with the identity just verified: no second code
  // (which the 60 s cooldown would hold back) is needed to end this flow signed in.
  const headers = await adminHeaders(request);
  const settings = (await (await request.get('/api/v1/tenants/sign-up-settings/')).json()) as { approval: string };
  expect((await request.patch('/api/v1/admin/sign-up-settings/', { headers, data: { approval: 'auto' } })).ok()).toBe(true);
  try {
    await directorySignUp(page);
  } finally {
    await request.patch('/api/v1/admin/sign-up-settings/', { headers, data: { approval: settings.approval } });
  }
});

async function directorySignUp(page: Page) {
  await skipAnnouncementPopup(page);
  const started = Date.now() - 1000;
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign in with Staff directory' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in with Staff directory' });
  await expect(dialog.getByLabel('User ID')).toBeFocused();
  await dialog.getByLabel('User ID').fill('lin');
  await dialog.locator('input[type="password"]').fill('wrong');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByTestId('sso-error')).toHaveText('The SSO sign-in was refused. Check your user ID and password and try again.');
  await dialog.locator('input[type="password"]').fill('Directory!9');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('We sent a verification code to l***@example.test.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: /New code in \d+ s/ })).toBeDisabled();
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/sso-directory-code.png' });

  let code: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await mailbox({ limit: 20 })).find(
        (entry) => entry.to === 'lin@example.test' && entry.template === 'verificationCode' && Date.parse(entry.createdAt) >= started,
      );
      code = mail?.text.match(/\b\d{6}\b/)?.[0];
      return code;
    })
    .toBeDefined();
  await dialog.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(dialog.getByTestId('sso-error')).toHaveText('The verification code is incorrect.');
  await dialog.getByLabel('Verification code').fill(code!);
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/auth\/sign-up$/);
  await expect(page.getByTestId('sso-sign-up-notice')).toContainText('lin@example.test');
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Lin Huiyin');
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Department', exact: true }).fill('Library');
  await page.getByRole('button', { name: 'Read Terms of service' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms of service' });
  await terms.getByRole('region').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await terms.getByRole('button', { name: 'I agree' }).click();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status', { name: 'Welcome!' })).toContainText('you are signed in');
  await page.getByRole('button', { name: 'Start chatting' }).click();
  await expect(page).toHaveURL(/\/dashboard\/chat/);
  await page.getByTestId('nav-my-page').click();
  await expect(page.getByTestId('sso-account')).toContainText('Connected to Staff directory');
}

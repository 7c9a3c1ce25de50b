import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, expectNoSeriousA11yViolations, signIn, signInThroughForm } from './support';
import { expectAccessibleOnPhone } from './screens';

test.describe('sign-in', () => {
  test('the admin signs in, sees the dashboard navigation and stays signed in after a reload', async ({ page }) => {
    await page.goto('/dashboard/studio');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(page.getByTestId('tenant-brand').getByRole('img', { name: 'Demo Workspace' })).toBeVisible();
    // The logo carries the workspace's name: it is not written again.
    await expect(page.getByText('Demo Workspace')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Back where the user wanted to go.
    await signInThroughForm(page, ADMIN);
    await expect(page).toHaveURL(/\/dashboard\/studio$/);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByTestId('new-chat')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Studio' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Store' })).toBeVisible();
    await expect(nav.getByText('My chats')).toBeVisible();
    await expect(nav.getByTestId('admin-button')).toBeVisible();
    expect(await nav.evaluate((element) => element.getBoundingClientRect().width)).toBe(264);

    await expect(page.getByRole('heading', { name: 'Studio' })).toBeVisible();
    await expect(page.getByTestId('create-chatbot').first()).toBeVisible();
    await expectAccessibleOnPhone(page, { restore: true });

    // The access token lives in memory only: a reload resumes through the refresh cookie.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Studio' })).toBeVisible();
    const stored = await page.evaluate(() => localStorage.getItem('user-data') ?? '');
    expect(stored).toContain(ADMIN.email);
    expect(stored).not.toMatch(/token/i);
  });

  test('a wrong password shows the sign-in error and a malformed email never reaches the server', async ({ page }) => {
    await page.goto('/auth');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password1!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('sign-in-error')).toHaveText('The email or password is incorrect.');
    await expect(page).toHaveURL(/\/auth$/);

    let signInCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/auth/sign-in/')) signInCalls += 1;
    });
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    expect(signInCalls).toBe(0);
  });

  test('signing in from /auth opens the chat of the first default chatbot', async ({ page }) => {
    await signInThroughForm(page, MEMBER);
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
  });

  test('a member has no admin button and sees the restricted page at /admin', async ({ page }) => {
    await signIn(page, MEMBER);
    await expect(page.getByTestId('new-chat')).toBeVisible();
    await expect(page.getByTestId('admin-button')).toHaveCount(0);

    await page.goto('/admin');
    await expect(page.getByText('This is a restricted access page.')).toBeVisible();
    await expect(page.getByText('New announcement')).toHaveCount(0);
  });

  test('when the session cannot be renewed the user is sent to /auth with auth_refresh_401', async ({ page, context }) => {
    await signIn(page, MEMBER);
    // The refresh cookie is gone and the next call is refused: the one refresh attempt fails.
    await context.clearCookies();
    await page.route('**/api/v1/members/*/', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ code: 'unauthorized', message: 'expired' }) })
        : route.fallback(),
    );
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();

    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByText('Your session has expired. Please sign in again.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user-data') ?? '')).not.toContain(MEMBER.email);
  });

  test('signing out returns to the sign-in page and protects the dashboard again', async ({ page }) => {
    await signIn(page, MEMBER);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/dashboard/chat');
    await expect(page).toHaveURL(/\/auth$/);
  });
});

import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, expectNoSeriousA11yViolations, showInLanguage, signIn } from './support';
import { menuButton } from './screens';

test('the admin console has the account menu, a way back to chat and sign out', async ({ page }) => {
  await signIn(page, ADMIN, { to: '/admin/members' });
  const menu = page.getByRole('navigation', { name: 'Admin console menu' });
  const account = page.getByTestId('account-menu');
  await expect(account).toContainText('admin@demo.test');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/console/admin-console-en-1440.png' });

  await menu.getByRole('link', { name: 'Back to chat' }).click();
  await expect(page).toHaveURL(/\/dashboard\/chat/);
  await expect(page.getByTestId('new-chat')).toBeVisible();

  await page.goto('/admin/members');
  await account.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth/);
});

test('on a phone the console drawer ends with the way back to chat and the account menu', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/admin/members');
  await showInLanguage(page, 'ko');
  await menuButton(page).click();
  await expect(page.getByRole('link', { name: '채팅으로 돌아가기' })).toBeVisible();
  await expect(page.getByTestId('account-menu').getByRole('button', { name: '로그아웃' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/console/admin-console-ko-375.png' });
});

test('a member who opens the console sees the restricted page with a way home', async ({ page }) => {
  await signIn(page, MEMBER, { to: '/admin/members' });
  await expect(page.getByTestId('restricted-page')).toHaveText('This is a restricted access page.');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/console/restricted-en-1440.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  await showInLanguage(page, 'ko');
  await expect(page.getByRole('link', { name: '채팅으로 이동' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/console/restricted-ko-375.png' });

  await page.getByTestId('restricted-home').click();
  await expect(page).toHaveURL(/\/dashboard\/chat/);
  await expect(page.getByTestId('composer-input')).toBeVisible();
});

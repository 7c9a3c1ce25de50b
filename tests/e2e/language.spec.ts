import { expect, test } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, signIn } from './support';

test('switching to Korean translates the app, survives a reload and is saved on the member', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.getByTestId('language-menu').click();
  const saved = page.waitForResponse((response) => /\/members\/\d+\/$/.test(response.url()) && response.request().method() === 'PATCH');
  await page.getByRole('menuitem', { name: '한국어' }).click();
  expect((await saved).ok()).toBe(true);

  const nav = page.getByRole('navigation');
  await expect(nav.getByTestId('new-chat')).toHaveText('새 채팅');
  await expect(nav.getByText('내 채팅')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await expectNoSeriousA11yViolations(page);

  await page.reload();
  await expect(page.getByTestId('new-chat')).toHaveText('새 채팅');

  // The member record carries the choice too (signing in again reports it).
  const again = await page.request.post('/api/v1/auth/sign-in/', { data: ADMIN });
  expect(((await again.json()) as { member: { language: string } }).member.language).toBe('ko');
});

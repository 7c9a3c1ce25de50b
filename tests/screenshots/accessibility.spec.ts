import { expect, test } from '@playwright/test';
import { ADMIN, createSession, signIn } from '../e2e/support';

/** The accessibility states a reviewer cannot see on the other shots: skip link, discard question, toast placement. */
test.use({ viewport: { width: 1280, height: 800 } });

test('accessibility states in en', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.goto('/dashboard/studio');
  await expect(page.getByRole('heading', { level: 1, name: 'Studio' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.screenshot({ path: 'screenshots/a11y-skip-link-en.png' });

  const { chatbotId, hashId } = await createSession(page, 'Trip planning');
  await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
  await page.getByRole('button', { name: 'Rename', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Trip planning, renamed');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Session renamed.' })).toBeVisible();
  await page.waitForTimeout(400); // the toast's entry transition
  await page.screenshot({ path: 'screenshots/a11y-toast-below-header-en.png' });

  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: 'New announcement' }).click();
  await page.keyboard.type('A draft that Escape must not lose');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.screenshot({ path: 'screenshots/a11y-discard-question-en.png' });
});

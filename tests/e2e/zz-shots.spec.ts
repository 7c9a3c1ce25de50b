import { test } from '@playwright/test';
import { ADMIN, MEMBER, signIn } from './support';

for (const width of [375]) {
  test(`shots ${width}`, async ({ page }) => {
    await signIn(page, ADMIN);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/admin/dashboard');
    await page.getByRole('img', { name: 'Messages' }).waitFor();
    await page.screenshot({ path: `/tmp/shots/dashboard-${width}.png`, fullPage: true });
    await page.goto('/admin/credits');
    await page.getByTestId('allocation-groups').waitFor();
    await page.screenshot({ path: `/tmp/shots/credits-alloc-${width}.png`, fullPage: true });
    await page.goto('/admin/credits?tab=usage');
    await page.getByRole('heading', { name: 'Images' }).waitFor();
    await page.screenshot({ path: `/tmp/shots/credits-usage-${width}.png`, fullPage: true });
    await page.goto('/admin/credits?tab=purchases');
    await page.getByTestId('credit-entries').waitFor();
    await page.screenshot({ path: `/tmp/shots/credits-purchases-${width}.png`, fullPage: true });
    await page.context().clearCookies();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, MEMBER);
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard/credits');
    await page.getByTestId('credit-entries').waitFor();
    await page.screenshot({ path: `/tmp/shots/member-credits-${width}.png`, fullPage: true });
  });
}

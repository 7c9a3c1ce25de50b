import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

test('an admin uploads a whitelist file, sees what was found, exports the list and removes an email', async ({ page }) => {
  const stamp = Date.now();
  const first = `wl-a-${stamp}@example.test`;
  const second = `wl-b-${stamp}@example.test`;
  await signIn(page, ADMIN, { to: '/admin/sso-whitelist' });
  await expect(page.getByRole('heading', { name: 'SSO whitelist', level: 1 })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Nothing valid pasted.
  await page.getByTestId('whitelist-text').fill('hello world');
  await expect(page.getByTestId('whitelist-add')).toBeDisabled();
  await page.getByTestId('whitelist-text').fill('bad@address');
  await expect(page.getByText('No valid emails found.')).toBeVisible();

  // A CSV file with a header, a name column and one invalid address.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Choose CSV or TXT file' }).click()]);
  await chooser.setFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(`email,name\n${first},Ann\n${second},Bob\nbroken@,Eve\n`) });
  await expect(page.getByTestId('whitelist-check')).toContainText('2 emails found.');
  await expect(page.getByTestId('whitelist-check')).toContainText('1 invalid address is skipped: broken@');
  await expectNoSeriousA11yViolations(page);
  await page.getByTestId('whitelist-add').click();
  await expect(page.getByText('2 added, 0 already on the list.')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search emails' }).fill(`${stamp}`);
  await expect(page.getByTestId('whitelist-row')).toHaveCount(2);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/sso-whitelist-1440.png', fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('sso-whitelist.csv');
  const csv = await readFile(await download.path());
  expect(csv.toString('utf8')).toContain(first);

  await expectAccessibleOnPhone(page);
  await page.getByRole('checkbox', { name: `Select ${first}` }).check();
  await page.getByRole('button', { name: 'Remove selected' }).click();
  await page.screenshot({ path: 'test-results/sso-whitelist-375.png', fullPage: true });
  await page.getByRole('dialog', { name: 'Remove 1 email?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('1 email removed.')).toBeVisible();
  await expect(page.getByTestId('whitelist-row')).toHaveCount(1);
});

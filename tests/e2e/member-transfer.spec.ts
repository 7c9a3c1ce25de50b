import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

test('an admin uploads a member file with errors and sees each failed row with its reason', async ({ page }) => {
  const fresh = `upload-${Date.now().toString(36)}@e2e.test`;
  const csv = [
    'name,email,default_member_group,sso_id,Department,Employee number',
    `New Member,${fresh},Default group,,Sales,`,
    `Already Here,${MEMBER.email},Default group,,Sales,`,
    'Bad Mail,not-an-email,Default group,,Sales,',
    `No Department,dept-${fresh},Default group,,,`,
  ].join('\r\n');

  await signIn(page, ADMIN);
  // Reached from the members page's header (the upload has no menu entry of its own).
  await page.goto('/admin/members');
  await page.getByTestId('members-header-actions').getByRole('link', { name: 'Upload members' }).click();
  await expect(page).toHaveURL(/\/admin\/members\/upload$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Member bulk upload' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const template = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV template' }).click();
  const templateText = readFileSync(await (await template).path(), 'utf8');
  expect(templateText.replace('\ufeff', '').split('\r\n')[0]).toBe('name,email,default_member_group,sso_id,Department,Employee number');

  await page.locator('input[type="file"]').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('selected-file')).toContainText('members.csv');
  await page.getByRole('button', { name: 'Upload and invite' }).click();

  await expect(page.getByTestId('upload-outcome')).toContainText('1 of 4 members were invited; 3 rows failed.');
  const failed = page.getByTestId('failed-rows');
  await expect(failed.getByRole('row').filter({ hasText: MEMBER.email })).toContainText('Already a member');
  await expect(failed.getByRole('row').filter({ hasText: 'not-an-email' })).toContainText('Invalid email address');
  await expect(failed.getByRole('row').filter({ hasText: `dept-${fresh}` })).toContainText('Department is required.');
  await expect(page).toHaveURL(/task=\d+/);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/member-upload-result.png', fullPage: true });
  await expectAccessibleOnPhone(page);
  await expect(failed).toBeVisible();
  await page.screenshot({ path: 'test-results/member-upload-result-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // A file laid out wrong is refused before anything happens.
  await page.getByRole('button', { name: 'Upload another file' }).click();
  await page.locator('input[type="file"]').setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from('name,email\r\nA,a@e2e.test\r\n') });
  await page.getByRole('button', { name: 'Upload and invite' }).click();
  await expect(page.getByRole('alert')).toContainText('The file has no "default_member_group" column.');
});

test('an admin exports the members as Excel, watches it finish and downloads the file', async ({ page }) => {
  await signIn(page, ADMIN, { to: '/admin/members' });
  await page.getByTestId('members-header-actions').getByRole('button', { name: 'Export members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export members' });
  await dialog.getByText('Excel (XLSX)').click();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Start export' }).click();
  await expect(dialog.getByTestId('export-ready')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/member-export-ready.png' });
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const bytes = readFileSync(await file.path());
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
});

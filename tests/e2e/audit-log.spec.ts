import { expect, test } from '@playwright/test';
import { ADMIN, adminHeaders, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

test('an admin edits an announcement, opens the audit log, filters to it and sees who changed what', async ({ page, request }) => {
  // The change, made as the console does it.
  const headers = await adminHeaders(request, ADMIN);
  const before = uniqueName('Audit drill');
  const created = (await (await request.post('/api/v1/admin/announcements/', { headers, data: { content: before, is_active: false } })).json()) as {
    id: number;
  };
  const after = `${before} (moved to Friday)`;
  expect((await request.patch(`/api/v1/admin/announcements/${created.id}/`, { headers, data: { content: after } })).ok()).toBe(true);

  await signIn(page, ADMIN, { to: '/admin/announcements' });
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/admin\/audit-log/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Filter: the action, then the announcement's id; both stay in the URL.
  await page.getByPlaceholder('All actions').click();
  await page.getByRole('option', { name: 'Announcement edited' }).click();
  await expect(page).toHaveURL(/action=announcement\.update/);
  await page.getByRole('searchbox', { name: 'Search' }).fill(String(created.id));
  await expect(page).toHaveURL(new RegExp(`search=${created.id}`));
  await expect(page).toHaveURL(/action=announcement\.update/);
  const row = page.getByTestId('audit-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Announcement edited');
  await expect(row).toContainText('Demo Admin');
  await expect(row).toContainText(`#${created.id}`);
  await expect(row).toContainText('Changed content');

  await row.getByRole('button', { name: 'Show details' }).click();
  const details = page.getByRole('table', { name: 'Details of Announcement edited' });
  await expect(details.getByRole('cell', { name: before, exact: true })).toBeVisible();
  await expect(details.getByRole('cell', { name: after, exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/audit-log-1440.png', fullPage: true });

  // The filtered view survives a reload (it is the URL).
  await page.reload();
  await expect(page.getByTestId('audit-row')).toHaveCount(1);

  await expectAccessibleOnPhone(page);
  await expect(page.getByTestId('audit-row')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/audit-log-375.png', fullPage: true });
});

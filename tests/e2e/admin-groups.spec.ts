import { expect, test } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';

test('an admin creates a group, sets its credit quotas, finds the default group locked, and deletes the group', async ({ page }) => {
  const name = uniqueName('Sales');
  await signIn(page, ADMIN);
  await page.goto('/admin/groups');
  await expect(page.getByRole('heading', { name: 'Group management' })).toBeVisible();
  const defaultRow = page.getByTestId('admin-group-row').filter({ hasText: 'Default' }).first();
  await expect(defaultRow).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Create: both names.
  await page.getByRole('button', { name: 'New group' }).click();
  const create = page.getByRole('dialog', { name: 'New group' });
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByText('This is a required field.').first()).toBeVisible();
  await create.getByLabel('Korean name').fill(`${name} 팀`);
  await create.getByLabel('English name').fill(name);
  await expectNoSeriousA11yViolations(page);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Group created.')).toBeVisible();
  const row = page.getByTestId('admin-group-row').filter({ hasText: name });
  await expect(row).toBeVisible();

  // A second group of the same English name is refused under the field.
  await page.getByRole('button', { name: 'New group' }).click();
  const again = page.getByRole('dialog', { name: 'New group' });
  await again.getByLabel('Korean name').fill(`${name} 둘`);
  await again.getByLabel('English name').fill(name);
  await again.getByRole('button', { name: 'Create' }).click();
  await expect(again.getByText('This name is in use by another group.')).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();

  // Quotas.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Credit quotas' }).click();
  const quotas = page.getByRole('dialog', { name: `Credit quotas: ${name}` });
  await quotas.getByLabel('Group monthly quota').fill('12000');
  await quotas.getByLabel('Per-member monthly quota').fill('300');
  await quotas.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Credit quotas saved.')).toBeVisible();
  await expect(row).toContainText('12,000');
  await expect(row).toContainText('300');
  await expect(row).toContainText('0 of 12,000');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/admin-groups-1440.png', fullPage: true });

  // The default group's credit info is locked, with the reason.
  await defaultRow.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Credit quotas' }).click();
  const locked = page.getByRole('dialog', { name: /^Credit quotas: / });
  await expect(locked.getByTestId('quota-locked')).toContainText("The default group's credit info cannot be changed.");
  await expect(locked.getByLabel('Group monthly quota')).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await locked.getByRole('button', { name: 'Close' }).click();

  // Members of the default group.
  await defaultRow.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Members' }).click();
  const members = page.getByRole('dialog', { name: /^Members of / });
  await expect(members.getByText('member@demo.test')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await members.getByRole('button', { name: 'Close' }).click();

  // Delete, confirmed; members fall back to the default group.
  await page.setViewportSize({ width: 375, height: 800 });
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirm).toContainText('fall back to the default group');
  await page.screenshot({ path: 'test-results/admin-groups-375.png', fullPage: true });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/^Group deleted\./)).toBeVisible();
  await expect(row).toHaveCount(0);
});

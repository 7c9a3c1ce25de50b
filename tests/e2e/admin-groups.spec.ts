import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

test('an admin creates a group, sets its credit quotas, finds the default group locked, and deletes the group', async ({ page }) => {
  const name = uniqueName('Sales');
  await signIn(page, ADMIN, { to: '/admin/groups' });
  await expect(page.getByRole('heading', { name: 'Group management' })).toBeVisible();
  const defaultRow = page.getByTestId('admin-group-row').filter({ hasText: 'Default' }).first();
  await expect(defaultRow).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Create: both names.
  await page.getByRole('button', { name: 'New group' }).click();
  const create = page.getByRole('dialog', { name: 'New group' });
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByText('Enter a Korean or an English name.')).toBeVisible();
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
  await expectAccessibleOnPhone(page);
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${name}?` });
  await expect(confirm).toContainText('fall back to the default group');
  await page.screenshot({ path: 'test-results/admin-groups-375.png', fullPage: true });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/^Group deleted\./)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('an admin creates a second group on the groups screen, adds it to a member in the member drawer, and sees it in the member list', async ({ page }) => {
  const name = uniqueName('Field team');
  await signIn(page, ADMIN, { to: '/admin/groups' });
  await page.getByRole('button', { name: 'New group' }).click();
  const create = page.getByRole('dialog', { name: 'New group' });
  await create.getByLabel('Korean name').fill(`${name} 팀`);
  await create.getByLabel('English name').fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Group created.')).toBeVisible();
  const groupRow = page.getByTestId('admin-group-row').filter({ hasText: name });
  await expect(groupRow).toBeVisible();

  // The member drawer offers the new group among the additional groups.
  await page.goto(`/admin/members?search=${encodeURIComponent(MEMBER.email)}`);
  const memberRow = page.getByTestId('member-row').and(page.locator(`[data-email="${MEMBER.email}"]`));
  await expect(memberRow).toBeVisible();
  await expect(memberRow).not.toContainText(name);
  await memberRow.getByTestId('open-member').click();
  const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('member-save') });
  // The form fills in once the member has loaded; typing before that would be reset.
  await expect(drawer.getByTestId('member-default-group')).toHaveValue('Default group');
  // By keyboard: the arrow opens the options.
  await drawer.getByRole('combobox', { name: 'Additional groups' }).focus();
  await page.keyboard.press('ArrowDown');
  await page.getByRole('option', { name }).click();
  await page.keyboard.press('Escape'); // closes the options, not the drawer
  // The seeded member has no value for the required Department field, which the save checks.
  await drawer.getByRole('textbox', { name: 'Department' }).fill('Field');
  await drawer.getByTestId('member-save').click();
  await expect(page.getByText(/^Saved /)).toBeVisible();
  await page.keyboard.press('Escape');

  // The list shows it on the member's row, and filtering by the group finds the member.
  await expect(memberRow).toContainText(name);
  await expect(memberRow).toContainText('Default group');
  await page.goto('/admin/members');
  await page.getByTestId('filter-member_group_id').click();
  await page.getByRole('option', { name }).click();
  await expect(page).toHaveURL(/member_group_id=\d+/);
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await expect(memberRow).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The group's own members drawer lists the member too; deleting the group takes it off the member again.
  await page.goto('/admin/groups');
  await groupRow.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Members' }).click();
  const members = page.getByRole('dialog', { name: /^Members of / });
  await expect(members.getByText(MEMBER.email)).toBeVisible();
  await members.getByRole('button', { name: 'Close' }).click();
  await groupRow.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete ${name}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText(/^Group deleted\./)).toBeVisible();
  await page.goto(`/admin/members?search=${encodeURIComponent(MEMBER.email)}`);
  await expect(memberRow).toBeVisible();
  await expect(memberRow).not.toContainText(name);
});

test('a group with only a Korean name is shown by that name in an English and in a Korean interface', async ({ page }) => {
  const name = uniqueName('연구소');
  await signIn(page, ADMIN, { to: '/admin/groups' });
  await page.getByRole('button', { name: 'New group' }).click();
  const create = page.getByRole('dialog', { name: 'New group' });
  await expect(create).toContainText('Where one is missing, the other is shown.');
  await create.getByLabel('Korean name').fill(name);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/intl/group-dialog-en-1440.png' });
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Group created.')).toBeVisible();
  const row = page.getByTestId('admin-group-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  // The English interface falls back to the Korean name wherever groups are named: the members filter too.
  await page.goto('/admin/members');
  await page.getByTestId('filter-member_group_id').click();
  await expect(page.getByRole('option', { name })).toBeVisible();
  await page.keyboard.press('Escape');

  // Korean: the same name, and the dialog says the rule in Korean.
  await page.goto('/dashboard/chat');
  await page.getByTestId('language-menu').click();
  await page.getByRole('menuitem', { name: '한국어' }).click();
  try {
    await page.goto('/admin/groups');
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: '새 그룹' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('한쪽이 없으면 다른 쪽 이름이 표시됩니다.');
    await page.screenshot({ path: 'test-results/intl/group-dialog-ko-1440.png' });
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'test-results/intl/group-dialog-ko-375.png' });
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: 'test-results/intl/groups-ko-375.png', fullPage: true });
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/dashboard/chat');
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
  }
  await page.goto('/admin/groups');
  await expect(row).toBeVisible();
  await page.screenshot({ path: 'test-results/intl/groups-en-1440.png', fullPage: true });
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete ${name}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText(/^Group deleted\./)).toBeVisible();
});

import { expect, test, type Page } from '@playwright/test';
import { mailTo, registerPending } from './accounts';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

const requestRow = (page: Page, email: string) => page.getByTestId('request-row').and(page.locator(`[data-email="${email}"]`));

test('an admin approves and rejects member requests singly and in bulk; rejections are mailed with the reason', async ({ page, request }) => {
  const [single, refused, bulkA, bulkB, bulkRefused] = [
    await registerPending(request, 'Ada Single'),
    await registerPending(request, 'Rosa Rechazada', 'es'),
    await registerPending(request, 'Bulk Alpha'),
    await registerPending(request, 'Bulk Beta'),
    await registerPending(request, 'Bulk Refused'),
  ];
  // The demo member asks for a group change on My page (the tenant approves group changes).
  const memberHeaders = await adminHeaders(request, MEMBER);
  const me = (await (await request.get('/api/v1/member-groups/?is_default=true')).json()) as { items: { id: number }[] };
  const memberId = (
    (await (await request.get('/api/v1/admin/members/?search_term=member%40demo.test', { headers: await adminHeaders(request) })).json()) as {
      items: { id: number }[];
    }
  ).items[0]!.id;
  const asked = await request.patch(`/api/v1/members/${memberId}/group/`, {
    headers: memberHeaders,
    data: { default_member_group_id: me.items[0]!.id, member_group_ids: [me.items[0]!.id] },
  });
  expect(asked.ok()).toBe(true);

  await signIn(page, ADMIN, { to: '/admin/requests' });
  await expect(page.getByRole('heading', { name: 'Pending requests' })).toBeVisible();
  await expect(requestRow(page, single)).toBeVisible();
  await expect(requestRow(page, single)).toContainText('New registration');
  await expect(requestRow(page, MEMBER.email)).toContainText('Group change');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/admin-requests.png', fullPage: true });

  // One approval.
  await requestRow(page, single).getByTestId('approve-request').click();
  await expect(page.getByText('Approved 1 request.')).toBeVisible();
  await expect(requestRow(page, single)).toHaveCount(0);
  expect((await mailTo(single, 'memberRequestApproved')).subject).toContain('approved');

  // One rejection: the reason is required, then mailed in the requester's language.
  await requestRow(page, refused).getByTestId('reject-request').click();
  await page.getByTestId('confirm-reject').click();
  await expect(page.getByText('Please provide a reason for the requester.')).toBeVisible();
  await expectAccessibleOnPhone(page, { restore: true });
  await page.getByTestId('reject-reason').fill('Usa tu correo de la empresa.');
  await page.getByTestId('confirm-reject').click();
  await expect(page.getByText('Rejected 1 request: the requester was told why.')).toBeVisible();
  const rejection = await mailTo(refused, 'memberRequestRejected');
  expect(rejection.subject).toContain('rechazada');
  expect(rejection.text).toContain('Usa tu correo de la empresa.');

  // Bulk approval of two registrations.
  await requestRow(page, bulkA).getByRole('checkbox').check();
  await requestRow(page, bulkB).getByRole('checkbox').check();
  await page.getByTestId('bulk-approve').click();
  await expect(page.getByText('Approved 2 requests.')).toBeVisible();
  await mailTo(bulkA, 'memberRequestApproved');
  await mailTo(bulkB, 'memberRequestApproved');

  // Bulk rejection of a registration and the group change.
  await requestRow(page, bulkRefused).getByRole('checkbox').check();
  await requestRow(page, MEMBER.email).getByRole('checkbox').check();
  await page.getByTestId('bulk-reject').click();
  await page.getByTestId('reject-reason').fill('Ask your team lead first.');
  await page.getByTestId('confirm-reject').press('Enter');
  await expect(page.getByText('Rejected 2 requests: the requesters were told why.')).toBeVisible();
  expect((await mailTo(bulkRefused, 'memberRequestRejected')).text).toContain('Ask your team lead first.');
  expect((await mailTo(MEMBER.email, 'memberRequestRejected')).text).toContain('Ask your team lead first.');

  // The decided members are in the members list with their new status.
  await page.goto('/admin/members?member_status=rejected');
  await expect(page.getByTestId('member-row').and(page.locator(`[data-email="${refused}"]`))).toBeVisible();
});

test('an admin searches members, edits one member’s name, group and credit limit, grants admin rights, and sets a bulk limit', async ({ page, request }) => {
  const email = await registerPending(request, 'Grace Editable');
  const headers = await adminHeaders(request);
  const groupName = `Archivists ${Date.now()}`;
  expect((await request.post('/api/v1/admin/member-groups/', { headers, data: { ko_name: `${groupName} 팀`, en_name: groupName } })).ok()).toBe(true);
  const found = (await (await request.get(`/api/v1/admin/members/?search_term=${encodeURIComponent(email)}`, { headers })).json()) as {
    items: { id: number }[];
  };
  await request.post(`/api/v1/admin/members/${found.items[0]!.id}/process-pending-request/`, { headers, data: { approve: true } });

  await signIn(page, ADMIN, { to: '/admin/members' });
  await expect(page.getByRole('heading', { name: 'All members' })).toBeVisible();
  await expect(page.getByTestId('member-row').first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/admin-members.png', fullPage: true });

  // Search (debounced into the URL) and a filter (kept in the URL too).
  await page.getByRole('searchbox', { name: 'Search members' }).fill('grace.editable');
  await expect(page).toHaveURL(/search=grace.editable/);
  const row = page.getByTestId('member-row').and(page.locator(`[data-email="${email}"]`));
  await expect(row).toBeVisible();
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await page.getByTestId('filter-is_admin').click();
  await page.getByRole('option', { name: 'Admins', exact: true }).click();
  await expect(page).toHaveURL(/is_admin=true/);
  await expect(page.getByTestId('members-empty')).toBeVisible();
  await page.goBack();
  await expect(row).toBeVisible();

  // The drawer: name, groups and credit limit.
  await row.getByTestId('open-member').click();
  const drawer = page.getByRole('dialog', { name: 'Grace Editable' });
  await expect(drawer.getByTestId('member-default-group')).toHaveValue('Default group');
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/admin-member-drawer.png' });
  await drawer.getByTestId('member-name').fill('Grace Edited');
  // By keyboard: from the default group to the additional groups, type, pick.
  await drawer.getByRole('combobox', { name: 'Additional groups' }).focus();
  await page.keyboard.type(groupName);
  await page.getByRole('option', { name: groupName }).click();
  await page.keyboard.press('Escape'); // closes the options, not the drawer
  await drawer.getByTestId('member-group-quota').uncheck();
  await drawer.getByTestId('member-credit-quota').fill('2500');
  await drawer.getByTestId('member-save').click();
  await expect(page.getByText('Saved Grace Edited.')).toBeVisible();
  await expect(row).toContainText('Grace Edited');
  await expect(row).toContainText('2,500');
  const edited = (await (await request.get(`/api/v1/admin/members/${found.items[0]!.id}/`, { headers })).json()) as { member_groups: { en_name: string }[] };
  expect(edited.member_groups.map((group) => group.en_name)).toEqual(expect.arrayContaining(['Default group', groupName]));

  // Admin rights, confirmed first.
  await page.getByRole('dialog', { name: 'Grace Edited' }).getByTestId('member-admin').click();
  await expect(page.getByRole('dialog', { name: 'Make Grace Edited an admin?' })).toBeVisible();
  await page.getByRole('button', { name: 'Make admin' }).click();
  await expect(page.getByText('Grace Edited is now an admin.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row).toContainText('Admin');

  // Bulk credit limit on the selected row, with a summary.
  await row.getByRole('checkbox').check();
  await page.getByTestId('bulk-quota').click();
  await page.getByTestId('bulk-quota-input').fill('100');
  await page.getByTestId('bulk-quota-save').click();
  await expect(page.getByText('Credit limit set for 1 of 1 members.')).toBeVisible();
  await expect(row).toContainText('100');

  // Bulk delete, confirmed.
  await row.getByRole('checkbox').check();
  await page.getByTestId('bulk-delete').click();
  await expect(page.getByRole('dialog', { name: 'Delete 1 member?' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).last().click();
  await expect(page.getByText('Deleted 1 member.')).toBeVisible();
  await expect(page.getByTestId('members-empty')).toBeVisible();
});

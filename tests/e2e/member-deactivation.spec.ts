import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { PASSWORD, registerPending } from './accounts';
import { ADMIN, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';

/** A new approved member of the demo workspace: signed up through the API, approved by the admin. */
async function approvedMember(request: APIRequestContext, name: string): Promise<string> {
  const email = await registerPending(request, name);
  const headers = await adminHeaders(request);
  const found = (await (await request.get(`/api/v1/admin/members/?search_term=${encodeURIComponent(email)}`, { headers })).json()) as {
    items: { id: number }[];
  };
  expect((await request.post(`/api/v1/admin/members/${found.items[0]!.id}/process-pending-request/`, { headers, data: { approve: true } })).ok()).toBe(true);
  return email;
}

/** The member signed in in a browser of their own. */
async function memberBrowser(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, { email, password: PASSWORD });
  return page;
}

const memberRow = (page: Page, email: string) => page.getByTestId('member-row').and(page.locator(`[data-email="${email}"]`));

async function openMembers(page: Page, search: string): Promise<void> {
  await page.goto(`/admin/members?search=${encodeURIComponent(search)}`);
  await expect(page.getByTestId('members-table')).toBeVisible();
}

test('an admin deactivates a member from the drawer after confirming: the member is signed out at once and told why, then reactivated', async ({
  page,
  browser,
  request,
}) => {
  const email = await approvedMember(request, 'Dana Leaving');
  const member = await memberBrowser(browser, email);

  await signIn(page, ADMIN);
  await openMembers(page, email);
  await memberRow(page, email).getByTestId('open-member').click();
  const drawer = page.getByRole('dialog', { name: 'Dana Leaving' });
  await drawer.getByTestId('member-deactivate').click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate Dana Leaving?' });
  await expect(confirm).toContainText('They are signed out at once and cannot sign in');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/public/member-deactivate-confirm-1440.png' });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Dana Leaving is deactivated.')).toBeVisible();
  await expect(drawer.getByText('Deactivated', { exact: true })).toBeVisible();
  await expect(memberRow(page, email)).toContainText('Deactivated');

  // The member's next request is refused; the client renews, is refused 403 and lands on sign-in with the reason.
  await member.goto('/dashboard/store');
  await expect(member).toHaveURL(/\/auth$/);
  await expect(member.getByText('Your account has been deactivated. Please contact your administrator.')).toBeVisible();
  // Signing in again says the same.
  await member.getByLabel('Email').fill(email);
  await member.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await member.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(member.getByText('Your account has been deactivated. Please contact your administrator.').first()).toBeVisible();
  await expectNoSeriousA11yViolations(member);

  // Reactivated: they sign in again.
  await drawer.getByTestId('member-reactivate').click();
  await page.getByRole('dialog', { name: 'Reactivate Dana Leaving?' }).getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByText('Dana Leaving is active again.')).toBeVisible();
  await member.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(member.getByTestId('new-chat')).toBeVisible();
  await member.context().close();
});

test('an admin deactivates and reactivates selected members in bulk after confirming (1440 and 375 px)', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const emails = [await approvedMember(request, `Bulk Off ${tag} One`), await approvedMember(request, `Bulk Off ${tag} Two`)];
  await signIn(page, ADMIN);
  await openMembers(page, `Bulk Off ${tag}`);
  await expect(page.getByTestId('member-row')).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select every member on this page' }).check();
  await page.getByTestId('bulk-deactivate').click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate 2 members?' });
  await expect(confirm).toContainText('Only approved members are changed.');
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Deactivated 2 of 2 selected.')).toBeVisible();
  for (const email of emails) await expect(memberRow(page, email)).toContainText('Deactivated');
  const headers = await adminHeaders(request);
  for (const email of emails) {
    const refused = await request.post('/api/v1/auth/sign-in/', { data: { email, password: PASSWORD } });
    expect([refused.status(), ((await refused.json()) as { code: string }).code]).toEqual([403, 'account_deactivated']);
  }
  // The audit log names each change.
  const audit = (await (await request.get('/api/v1/admin/audit-log/?action=member.status', { headers })).json()) as { items: { changes: unknown }[] };
  expect(audit.items.length).toBeGreaterThanOrEqual(2);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('checkbox', { name: 'Select every member on this page' }).check();
  await page.getByTestId('bulk-reactivate').click();
  const again = page.getByRole('dialog', { name: 'Reactivate 2 members?' });
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/public/member-reactivate-bulk-375.png' });
  await again.getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByText('Reactivated 2 of 2 selected.')).toBeVisible();
  for (const email of emails) expect((await request.post('/api/v1/auth/sign-in/', { data: { email, password: PASSWORD } })).status()).toBe(200);
});

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mailbox } from './mailbox';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn, skipAnnouncementPopup } from './support';
import { PHONE_VIEWPORT, expectAccessibleOnPhone } from './screens';

test('an admin invites people from the console, the invitee joins from the mail, and an invitation is deleted', async ({ page, browser, request }) => {
  const stamp = Date.now();
  const email = `console-invitee-${stamp}@example.test`;
  const pastedEmail = `pasted-${stamp}@example.test`;
  await signIn(page, ADMIN, { to: '/admin/invitations' });
  await expect(page.getByRole('heading', { name: 'Invited members' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Invite members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite members' });
  await dialog.getByRole('textbox', { name: 'Email, row 1' }).fill(email);
  await dialog.getByRole('textbox', { name: 'Name, row 1' }).fill('Katherine Johnson');
  // Pasted lines become rows; an invalid address is answered per row.
  await dialog.getByRole('tab', { name: 'Paste lines' }).click();
  await dialog.getByLabel('One person per line').fill(`${pastedEmail}, Dorothy Vaughan\nnot-an-email`);
  await dialog.getByRole('button', { name: 'Add 2 rows' }).click();
  await expect(dialog.getByTestId('invite-row')).toHaveCount(3);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/admin-invitations-dialog.png' });
  await dialog.getByTestId('send-invitations').click();
  // The invalid row is caught before sending.
  await expect(dialog.getByText('Please enter a valid email address.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove row 3' }).click();
  await dialog.getByTestId('send-invitations').click();
  const results = dialog.getByTestId('invite-results');
  await expect(results).toContainText('2 of 2 invited.');
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('searchbox', { name: 'Search by email or name' }).fill(`${stamp}`);
  await expect(page).toHaveURL(new RegExp(`search=${stamp}`));
  await expect(page.getByTestId('invitation-row')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/admin-invitations-1440.png', fullPage: true });

  // The invitee reads the mail and joins.
  let text = '';
  await expect
    .poll(async () => {
      text = (await mailbox({ limit: 50 })).find((mail) => mail.to === email && mail.template === 'invitation')?.text ?? '';
      return text;
    })
    .not.toBe('');
  const link = new URL(/https?:\/\/\S+\/auth\/invitation\/\S+/.exec(text)![0]);
  const temporary = text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line))!;
  const invitee = await (await browser.newContext()).newPage();
  await skipAnnouncementPopup(invitee);
  await invitee.goto(link.pathname + link.search);
  await expect(invitee.getByTestId('invitation-email')).toHaveText(email);
  const field = (name: RegExp) => invitee.locator('input').and(invitee.getByLabel(name));
  await field(/^Temporary password/).fill(temporary);
  await field(/^New password/).fill('Joined!2345');
  await field(/^Confirm/).fill('Joined!2345');
  await invitee.getByRole('button', { name: 'Read Terms of service' }).click();
  const terms = invitee.getByRole('dialog', { name: 'Terms of service' });
  await terms.getByRole('region').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await terms.getByRole('button', { name: 'I agree' }).click();
  await invitee.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(invitee).toHaveURL(/\/dashboard\/chat/);
  await invitee.context().close();

  await page.reload();
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toContainText('Accepted');

  // Bulk delete, confirmed.
  await expectAccessibleOnPhone(page);
  const pastedRow = page.getByTestId('invitation-row').filter({ hasText: pastedEmail });
  await pastedRow.getByRole('checkbox', { name: `Select ${pastedEmail}` }).check();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 1 invitation?' });
  await page.screenshot({ path: 'test-results/admin-invitations-375.png', fullPage: true });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('1 invitation deleted.')).toBeVisible();
  await expect(pastedRow).toHaveCount(0);
  const verify = await request.get(`/api/v1/admin/invitations/?search_term=${pastedEmail}`, { headers: await adminHeaders(request) });
  expect((await verify.json()).total_items).toBe(0);
});

/** Pastes `lines` into the invite dialog as rows; resolves when the dialog offers to send them all. */
async function pasteRows(page: Page, lines: string[]): Promise<void> {
  await page.goto('/admin/invitations');
  await page.getByRole('button', { name: 'Invite members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite members' });
  await dialog.getByRole('tab', { name: 'Paste lines' }).click();
  await dialog.getByLabel('One person per line').fill(lines.join('\n'));
  await dialog.getByRole('button', { name: `Add ${lines.length} rows` }).click();
  // By test id from here on: with hundreds of rows on the page, every poll of a role query walks them all.
  await expect(page.getByTestId('send-invitations')).toHaveText(`Send ${lines.length} invitations`);
}

/** The test's `expected` pending invitations (found by `search`) go again, so the plan's invitation cap is left as it was. */
async function deleteInvitations(request: APIRequestContext, search: string, expected: number): Promise<void> {
  const headers = await adminHeaders(request);
  const listed = (await (await request.get(`/api/v1/admin/invitations/?search_term=${search}`, { headers })).json()) as { items: { id: number }[] };
  expect(listed.items).toHaveLength(expected);
  expect((await request.post('/api/v1/admin/invitations/bulk/delete/', { headers, data: { invitation_ids: listed.items.map((item) => item.id) } })).ok()).toBe(
    true,
  );
}

test('600 pasted rows go out in six batches of 100 with a progress bar, then the result of every row (1440 px)', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  // Five new people, each pasted 120 times (a spreadsheet with repeats): 600 rows, six batches.
  const people = Array.from({ length: 5 }, (_, i) => `batch-${stamp}-${i}@example.test`);
  await signIn(page, ADMIN);
  await page.setViewportSize({ width: 1440, height: 900 });
  await pasteRows(
    page,
    Array.from({ length: 600 }, (_, i) => `${people[i % 5]}, Batch Person ${i % 5}`),
  );

  // The second batch waits until the progress of the first has been seen.
  let releaseSecond!: () => void;
  const secondHeld = new Promise<void>((resolve) => (releaseSecond = resolve));
  const batchSizes: number[] = [];
  await page.route('**/api/v1/admin/invitations/bulk/', async (route) => {
    batchSizes.push((route.request().postDataJSON() as { members: unknown[] }).members.length);
    if (batchSizes.length === 2) await secondHeld;
    await route.continue();
  });
  await page.getByTestId('send-invitations').click();
  const progress = page.getByTestId('invite-progress');
  // The first batch writes five invitations and their mails: slower than the rest on a busy machine.
  await expect(progress).toContainText('Sending invitations: 100 of 600…', { timeout: 30_000 });
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '17');
  // No axe here: the Send button's spinner never stops while batches go out; axe runs on the result
  // (the next test). The dialog is scrolled to its Send button: the review shot shows the bar.
  await progress.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/public/invite-progress-1440.png' });
  releaseSecond();

  // Waited for without retrying an assertion: each failed try of one takes a snapshot of the whole
  // page's accessibility tree, 600 rows of it, which starved the page of the time to send the batches.
  const summary = page.getByTestId('invite-summary');
  await summary.waitFor({ timeout: 30_000 });
  await expect(summary).toHaveText('5 of 600 invited.');
  expect(batchSizes).toEqual([100, 100, 100, 100, 100, 100]);
  const results = page.getByTestId('invite-results');
  await expect(results.getByText('Invited', { exact: true })).toHaveCount(5);
  await expect(results.getByText('Already invited', { exact: true })).toHaveCount(595);
  await deleteInvitations(request, `batch-${stamp}`, 5);
});

test('on a phone the dialog answers each of 120 rows sent in two batches: invited, already invited, already a member (375 px, axe)', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  // Two new people and a member of the workspace, 40 times each: two batches (100 and 20).
  const people = [`phone-${stamp}-0@example.test`, `phone-${stamp}-1@example.test`, MEMBER.email];
  await signIn(page, ADMIN);
  await page.setViewportSize(PHONE_VIEWPORT);
  await pasteRows(
    page,
    Array.from({ length: 120 }, (_, i) => `${people[i % 3]}, Phone Person ${i % 3}`),
  );
  await page.getByTestId('send-invitations').click();

  const results = page.getByTestId('invite-results');
  await expect(page.getByTestId('invite-summary')).toHaveText('2 of 120 invited.');
  await expect(results.getByText('Invited', { exact: true })).toHaveCount(2);
  await expect(results.getByText('Already invited', { exact: true })).toHaveCount(78);
  await expect(results.getByText('Already a member', { exact: true })).toHaveCount(40);
  await expectNoSeriousA11yViolations(page);
  // The dialog opens at its Done button; the review shot starts at the summary.
  await page.getByTestId('invite-summary').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/public/invite-results-375.png' });
  await page.getByRole('dialog', { name: 'Invite members' }).getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('invite-results')).toHaveCount(0);
  await deleteInvitations(request, `phone-${stamp}`, 2);
});

import { expect, test } from '@playwright/test';
import { mailbox } from './mailbox';
import { ADMIN, adminHeaders, expectNoSeriousA11yViolations, signIn, skipAnnouncementPopup } from './support';
import { expectAccessibleOnPhone } from './screens';


test('an admin invites people from the console, the invitee joins from the mail, and an invitation is deleted', async ({ page, browser, request }) => {
  const stamp = Date.now();
  const email = `console-invitee-${stamp}@example.test`;
  const pastedEmail = `pasted-${stamp}@example.test`;
  await signIn(page, ADMIN);
  await page.goto('/admin/invitations');
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

test('600 pasted rows go out in batches with a progress bar, then the final result per row (1440 and 375 px)', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  // Five new people, each pasted 120 times (a spreadsheet with repeats): 600 rows, six batches.
  const people = Array.from({ length: 5 }, (_, i) => `batch-${stamp}-${i}@example.test`);
  const lines = Array.from({ length: 600 }, (_, i) => `${people[i % 5]}, Batch Person ${i % 5}`);
  await signIn(page, ADMIN);
  await page.goto('/admin/invitations');
  await page.getByRole('button', { name: 'Invite members' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite members' });
  await dialog.getByRole('tab', { name: 'Paste lines' }).click();
  await dialog.getByLabel('One person per line').fill(lines.join('\n'));
  await dialog.getByRole('button', { name: 'Add 600 rows' }).click();
  await expect(dialog.getByTestId('send-invitations')).toHaveText('Send 600 invitations');

  // The second batch waits until the progress of the first has been seen.
  let releaseSecond!: () => void;
  const secondHeld = new Promise<void>((resolve) => (releaseSecond = resolve));
  const batchSizes: number[] = [];
  await page.route('**/api/v1/admin/invitations/bulk/', async (route) => {
    batchSizes.push((route.request().postDataJSON() as { members: unknown[] }).members.length);
    if (batchSizes.length === 2) await secondHeld;
    await route.continue();
  });
  await dialog.getByTestId('send-invitations').click();
  const progress = dialog.getByTestId('invite-progress');
  // The first batch writes five invitations and their mails: slower than the rest on a busy machine.
  await expect(progress).toContainText('Sending invitations: 100 of 600…', { timeout: 30_000 });
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '17');
  // No axe here: the Send button's spinner never stops while batches go out; axe runs on the result.
  await page.screenshot({ path: 'test-results/public/invite-progress-1440.png' });
  releaseSecond();

  const results = dialog.getByTestId('invite-results');
  await expect(dialog.getByTestId('invite-summary')).toHaveText('5 of 600 invited.', { timeout: 30_000 });
  expect(batchSizes).toEqual([100, 100, 100, 100, 100, 100]);
  await expect(results.getByText('Invited', { exact: true })).toHaveCount(5);
  await expect(results.getByText('Already invited', { exact: true })).toHaveCount(595);
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/public/invite-results-375.png' });
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The five pending invitations go again, so the plan's invitation cap is left as it was.
  const headers = await adminHeaders(request);
  const listed = (await (await request.get(`/api/v1/admin/invitations/?search_term=batch-${stamp}`, { headers })).json()) as { items: { id: number }[] };
  expect(listed.items).toHaveLength(5);
  expect((await request.post('/api/v1/admin/invitations/bulk/delete/', { headers, data: { invitation_ids: listed.items.map((item) => item.id) } })).ok()).toBe(true);
});

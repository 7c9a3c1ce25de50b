import { expect, test } from '@playwright/test';
import { mailbox } from './mailbox';
import { adminHeaders, skipAnnouncementPopup } from './support';
import { expectAccessibleOnPhone } from './screens';

test('an invited person joins with the temporary password from the mail and lands in the chat, welcomed', async ({ page, request }) => {
  const email = `invitee-${Date.now()}@example.test`;
  const invited = await request.post('/api/v1/admin/invitations/bulk/', {
    headers: await adminHeaders(request),
    data: { members: [{ email, name: 'Mary Jackson' }] },
  });
  expect((await invited.json()).results).toEqual([expect.objectContaining({ email, result: 'invited' })]);

  // The mail, as the invitee reads it: the link and the temporary password.
  let text = '';
  await expect
    .poll(async () => {
      text = (await mailbox({ limit: 20 })).find((mail) => mail.to === email && mail.template === 'invitation')?.text ?? '';
      return text;
    })
    .not.toBe('');
  const link = new URL(/https?:\/\/\S+\/auth\/invitation\/\S+/.exec(text)![0]);
  const temporary = text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line))!;

  await skipAnnouncementPopup(page);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: /^Join / })).toBeVisible();
  await expect(page.getByTestId('invitation-email')).toHaveText(email);
  await expect(page.getByRole('textbox', { name: 'Name', exact: false })).toHaveValue('Mary Jackson');
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/invitation.png' });

  const field = (name: RegExp) => page.locator('input').and(page.getByLabel(name));
  await field(/^Temporary password/).fill('Wrong-pass1!');
  await field(/^New password/).fill('Joined!2345');
  await field(/^Confirm/).fill('Joined!2345');
  await page.getByRole('button', { name: 'Read Terms of service' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms of service' });
  await terms.getByRole('region').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await terms.getByRole('button', { name: 'I agree' }).click();
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.getByTestId('invitation-error')).toHaveText('The temporary password is not correct. Check the invitation mail.');

  await field(/^Temporary password/).fill(temporary);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/chat/);
  await expect(page.getByText(/^Welcome to .*! You have joined and can start chatting\.$/)).toBeVisible();

  // The link is spent.
  await page.context().clearCookies();
  await page.goto(link.pathname + link.search);
  await expect(page.getByTestId('invitation-invalid')).toBeVisible();
});

import { expect, test } from '@playwright/test';
import { mailbox } from './mailbox';
import { MEMBER, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

const NEW_PASSWORD = 'Brand-New#2026';

/** The reset link of the newest mail to `to` (tests/e2e/mailbox.ts), once it has arrived. */
async function resetLinkFor(to: string): Promise<string> {
  let url: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await mailbox()).find((entry) => entry.to === to && entry.template === 'passwordReset');
      url = mail && /https?:\/\/\S+\/auth\/reset\/\S+/.exec(mail.text)?.[0];
      return url !== undefined;
    })
    .toBe(true);
  return new URL(url!).pathname + new URL(url!).search;
}

test('forgot password: mail link, new password, sign in with it; then change it back on My page', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Keyboard only: the email field, then the submit button.
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('reset-mail-sent')).toContainText(MEMBER.email);
  await expectAccessibleOnPhone(page, { restore: true });

  await page.goto(await resetLinkFor(MEMBER.email));
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm the new password').fill('Something-else#1');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByText('The passwords do not match.')).toBeVisible();
  await expectAccessibleOnPhone(page, { restore: true });
  await page.getByLabel('Confirm the new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByTestId('reset-done')).toBeVisible();
  const link = page.url();

  // The link works once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Again-New#2026');
  await page.getByLabel('Confirm the new password').fill('Again-New#2026');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByTestId('reset-error')).toContainText('This link is not valid or has already been used.');

  await signIn(page, { email: MEMBER.email, password: NEW_PASSWORD });

  // My page: change it back (other e2e specs sign in with the seeded password).
  await expect(page.getByTestId('chat-welcome')).toBeVisible(); // the dashboard has settled on its first chat
  await page.getByTestId('nav-my-page').click();
  await expect(page).toHaveURL(/\/dashboard\/my-page$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My page' })).toBeVisible();
  await expect(page.getByTestId('my-page-email')).toHaveText(MEMBER.email);
  await expectNoSeriousA11yViolations(page);
  const form = page.getByTestId('change-password-form');
  await form.getByLabel('Current password').fill('Wrong-Password#1');
  await form.getByLabel('New password', { exact: true }).fill(MEMBER.password);
  await form.getByLabel('Confirm the new password').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('change-password-outcome')).toHaveText('The current password is not correct.');
  await form.getByLabel('Current password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('change-password-outcome')).toContainText('Your password has been changed.');
  await expectAccessibleOnPhone(page, { restore: true });

  // This session stays: a reload keeps the member signed in (the refresh cookie was kept).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'My page' })).toBeVisible();
});

test('My page: a group-change request waits for an administrator and can be withdrawn', async ({ page }) => {
  await signIn(page, MEMBER, { to: '/dashboard/my-page' });
  await expect(page.getByTestId('my-groups').getByRole('listitem')).not.toHaveCount(0);
  await page.getByRole('button', { name: 'Request the change' }).click();
  await expect(page.getByTestId('group-request-pending')).toContainText('waiting for an administrator');
  await expectNoSeriousA11yViolations(page);
  // Still pending after a reload: it is stored, not just shown.
  await page.reload();
  await page.getByRole('button', { name: 'Withdraw the request' }).click();
  await expect(page.getByRole('button', { name: 'Request the change' })).toBeVisible();
});

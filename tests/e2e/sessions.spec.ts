import { expect, test } from '@playwright/test';
import { ADMIN, createSession, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

test.describe('My chats', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN);
  });

  test('rename a session, then delete it from the navigation; the open session leads to the first default chatbot', async ({ page }) => {
    const title = uniqueName('Trip plan');
    const { chatbotId, hashId } = await createSession(page, title);
    await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
    const list = page.getByTestId('session-list');
    await expect(list.getByRole('link', { name: title })).toBeVisible();

    const renamed = uniqueName('Renamed');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    const renameDialog = page.getByRole('dialog');
    await expect(renameDialog.getByLabel('Title')).toBeFocused();
    await expectAccessibleOnPhone(page, { restore: true });
    await renameDialog.getByLabel('Title').fill(renamed);
    await renameDialog.getByRole('button', { name: 'Save' }).click();
    await expect(list.getByRole('link', { name: renamed })).toBeVisible();
    await expect(list.getByRole('link', { name: title })).toHaveCount(0);

    const item = page.getByTestId('session-item').filter({ hasText: renamed });
    await item.hover();
    await item.getByRole('button', { name: `Delete “${renamed}”` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(`Delete “${renamed}”?`)).toBeVisible();
    await expect(dialog.getByText(new RegExp(`The chat “${renamed}” and all of its messages`))).toBeVisible();
    await expectAccessibleOnPhone(page, { restore: true });
    await dialog.getByRole('button', { name: 'Delete' }).click();

    await expect(list.getByRole('link', { name: renamed })).toHaveCount(0);
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
    await page.reload();
    await expect(page.getByTestId('session-item').filter({ hasText: renamed })).toHaveCount(0);
  });

  test('a failed delete puts the session back and shows error_delete_session', async ({ page }) => {
    const title = uniqueName('Keep me');
    await createSession(page, title);
    await page.goto('/dashboard/studio');
    const item = page.getByTestId('session-item').filter({ hasText: title });
    await expect(item).toBeVisible();

    let releaseFailure: () => void = () => undefined;
    const failureReleased = new Promise<void>((resolve) => (releaseFailure = resolve));
    await page.route('**/api/v1/sessions/*/', async (route) => {
      if (route.request().method() !== 'DELETE') return route.fallback();
      await failureReleased;
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal_error', message: 'Server error' }) });
    });

    await item.hover();
    await item.getByRole('button', { name: `Delete “${title}”` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(item).toHaveCount(0); // optimistic: gone before the server answers
    releaseFailure();

    await expect(page.getByText('The chat could not be deleted. Please try again.')).toBeVisible();
    await expect(page.getByTestId('session-item').filter({ hasText: title })).toBeVisible();
  });
});

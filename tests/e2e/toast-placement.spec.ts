import { expect, test, type Locator, type Page } from '@playwright/test';
import { PII_KINDS } from '../../src/shared/domain/pii';
import { ADMIN, animationsSettled, createChatbotInStudio, createSession, signIn, uniqueName } from './support';

/**
 * Toasts sit at the top (spec §8) without covering the controls a user reaches for next: the chat
 * header's, the Studio's Back link, Access, Save and its test chat's header, Create chatbot after a
 * deletion, the privacy selectors after saving them, and on a phone the Menu button; at a desktop
 * width and on a phone.
 */

const toast = (page: Page) => page.locator('.mantine-Notification-root').first();

/** The toast's box and the control's box share no pixel. */
async function expectClear(page: Page, control: Locator): Promise<void> {
  await expect(toast(page)).toBeVisible();
  // The toast slides in: measure where it comes to rest.
  await animationsSettled(page);
  const [a, b] = [await toast(page).boundingBox(), await control.boundingBox()];
  expect(a, 'toast is rendered').not.toBeNull();
  expect(b, 'control is rendered').not.toBeNull();
  const apart = a!.x + a!.width <= b!.x || b!.x + b!.width <= a!.x || a!.y + a!.height <= b!.y || b!.y + b!.height <= a!.y;
  expect(apart, `toast ${JSON.stringify(a)} covers ${control} ${JSON.stringify(b)}`).toBe(true);
}

for (const width of [1440, 375]) {
  test.describe(`at ${width}px`, () => {
    test.beforeEach(async ({ page }) => {
      await signIn(page, ADMIN);
      await page.setViewportSize({ width, height: 812 });
    });

    test('renaming a session leaves the chat header uncovered', async ({ page }) => {
      const { chatbotId, hashId } = await createSession(page, uniqueName('Toasted'));
      await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
      const header = page.locator('header').filter({ has: page.getByTestId('session-title') });
      await header.getByRole('button', { name: 'Rename' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rename session' });
      await dialog.getByLabel('Title').fill(uniqueName('Renamed'));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Session renamed.')).toBeVisible();
      for (const name of ['Rename', 'Share', 'Delete', 'General Assistant · Search chatbots', 'New session']) {
        await expectClear(page, header.getByRole('button', { name, exact: true }));
      }
    });

    test("the Studio's toasts leave Save, the test chat's header and Create chatbot uncovered", async ({ page }) => {
      await page.goto('/dashboard/studio');
      await createChatbotInStudio(page, uniqueName('Toast'));
      await expect(page.getByTestId('test-chat')).toBeVisible();
      // A short name keeps the title on one line, so Access and Save sit right under the Back link.
      await page.getByTestId('en-name').fill('Toast');
      await page.getByTestId('save-chatbot').click();
      await expect(page.getByText('Chatbot saved.')).toBeVisible();
      for (const control of [
        ...(width === 375 ? [page.getByRole('button', { name: 'Menu' })] : []),
        page.getByRole('link', { name: 'Back to my chatbots' }),
        page.getByTestId('save-chatbot'),
        page.getByTestId('delete-chatbot'),
        page.getByTestId('open-access'),
        page.getByTestId('test-chat-header'),
      ]) {
        await expectClear(page, control);
      }

      await page.getByTestId('delete-chatbot').click();
      await page
        .getByRole('dialog', { name: /^Delete / })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.waitForURL(/\/dashboard\/studio$/);
      await expect(page.getByText('Chatbot deleted.')).toBeVisible();
      await expectClear(page, page.getByTestId('create-chatbot').first());
    });

    test('saving the privacy settings leaves their selectors uncovered', async ({ page }) => {
      await page.goto('/admin/restricted-words');
      const phone = page.getByTestId('pii-phone');
      const next = (await phone.locator('input:checked').getAttribute('value')) === 'mask' ? 'Allow' : 'Mask';
      await phone.getByText(next).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.getByText('Privacy settings saved.')).toBeVisible();
      for (const kind of PII_KINDS) await expectClear(page, page.getByTestId(`pii-${kind}`));
    });
  });
}

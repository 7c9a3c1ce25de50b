import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

function card(page: Page, text: string) {
  return page.getByTestId('announcement-card').filter({ hasText: text });
}

/**
 * Sees a toast and closes it, as a user does when it sits over the card's corner they want to use
 * next (closed at once, so its 5 s never run out between the two steps).
 */
async function closeToast(page: Page, message: string) {
  const toast = page.getByRole('status').filter({ hasText: message });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Close' }).click();
  await expect(toast).toHaveCount(0);
}

/**
 * Clicks the middle of a card's switch with the mouse. The middle may be the switch's thumb, which
 * toggles it (it is inside the switch's label) but is not the input Playwright's click aims at.
 */
async function clickSwitch(page: Page, text: string) {
  const box = (await card(page, text).getByRole('switch').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test.describe('admin announcements', () => {
  test('the admin button opens the console in a new tab, on the dashboard', async ({ page }) => {
    await signIn(page, ADMIN);
    const [consoleTab] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('admin-button').click()]);
    await expect(consoleTab).toHaveURL(/\/admin\/dashboard/);
    await expect(consoleTab.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  test('create, edit, switch off and on, and delete an announcement', async ({ page }) => {
    await signIn(page, ADMIN);
    // The list is held back until the skeleton has been seen, so it shows however fast the server is.
    let releaseList: () => void = () => undefined;
    const listReleased = new Promise<void>((resolve) => (releaseList = resolve));
    const isList = (url: URL) => url.pathname === '/api/v1/admin/announcements/';
    await page.route(isList, async (route) => {
      await listReleased;
      await route.fallback();
    });
    await page.goto('/admin/announcements');
    await expect(page.getByTestId('announcements-skeleton')).toBeVisible();
    releaseList();
    await expect(page.getByTestId('announcement-card').first()).toBeVisible();
    await expect(page.getByTestId('announcements-skeleton')).toHaveCount(0);
    await page.unroute(isList);
    // The demo's few announcements fit on one page of 5: no pagination.
    await expect(page.locator('.mantine-Pagination-root')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    const text = uniqueName('Maintenance window');
    await page.getByRole('button', { name: 'New announcement' }).click();
    const dialog = page.getByRole('dialog', { name: 'New announcement' });
    await expect(dialog.getByRole('switch', { name: 'Set as active' })).toBeChecked();
    await expectAccessibleOnPhone(page, { restore: true });
    await dialog.locator('.ProseMirror').click();
    await page.keyboard.type(text);
    await dialog.getByRole('button', { name: 'Heading 2' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();

    await closeToast(page, 'Announcement created.');
    await expect(card(page, text).getByRole('heading', { level: 2, name: text })).toBeVisible();
    await expect(card(page, text).getByRole('switch')).toBeChecked();
    // Stored as markdown, not HTML.
    const signedIn = (await (await page.request.post('/api/v1/auth/sign-in/', { data: ADMIN })).json()) as { access_token: string };
    const stored = (await (
      await page.request.get('/api/v1/admin/announcements/?size=100', { headers: { 'x-access-token': signedIn.access_token } })
    ).json()) as { items: { content: string }[] };
    expect(stored.items.find((item) => item.content.includes(text))?.content).toBe(`## ${text}`);
    // Creating an active announcement deactivates all the others.
    await expect(page.getByTestId('announcement-card').getByRole('switch', { checked: true })).toHaveCount(1);
    // Each switch says the card's state: the one members see is live, the others are off.
    await expect(card(page, text).getByRole('switch', { name: 'Live' })).toBeChecked();
    await expect(page.getByTestId('announcement-card').getByRole('switch', { name: 'Live' })).toHaveCount(1);
    await expect(page.getByTestId('announcement-card').getByRole('switch', { name: 'Off' })).toHaveCount(
      (await page.getByTestId('announcement-card').count()) - 1,
    );

    await card(page, text).getByRole('button', { name: 'Edit' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit announcement' });
    // A click at the right end of the heading's line puts the caret after its text.
    const heading = editDialog.locator('.ProseMirror h2');
    const box = (await heading.boundingBox())!;
    await heading.click({ position: { x: box.width - 2, y: box.height / 2 } });
    await page.keyboard.press('Enter');
    await page.keyboard.type('Updated details');
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await closeToast(page, 'Announcement updated.');
    await expect(card(page, text)).toContainText('Updated details');

    await clickSwitch(page, text);
    await closeToast(page, 'The announcement is now inactive.');
    await expect(card(page, text).getByRole('switch', { name: 'Off' })).not.toBeChecked();
    await clickSwitch(page, text);
    await closeToast(page, 'The announcement is now active.');
    await expect(card(page, text).getByRole('switch', { name: 'Live' })).toBeChecked();

    await card(page, text).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this announcement?' });
    await expectAccessibleOnPhone(page, { restore: true });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Announcement deleted.')).toBeVisible();
    await expect(card(page, text)).toHaveCount(0);
  });

  test('page and size live in the URL and Back restores the previous page', async ({ page }) => {
    await signIn(page, ADMIN, { to: '/admin/announcements?page=1&size=1' });
    const pagination = page.locator('.mantine-Pagination-root');
    await expect(pagination).toBeVisible();
    const firstCard = (await page.getByTestId('announcement-card').first().textContent()) ?? '';
    await pagination.getByRole('button', { name: '2' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByTestId('announcement-card').first()).not.toHaveText(firstCard);
    await page.goBack();
    await expect(page).toHaveURL(/page=1/);
    await expect(page.getByTestId('announcement-card').first()).toHaveText(firstCard);
  });
});

import { expect, test, type Page } from '@playwright/test';
import { MEMBER, skipAnnouncementPopup } from './support';

/** Holds the responses whose URL matches for `ms`, as a slow network or a busy server would. */
const slowDown = (page: Page, url: RegExp, ms: number) =>
  page.route(url, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });

test('a page opened from the navigation while the chat is still loading stays open', async ({ page }) => {
  await skipAnnouncementPopup(page);
  expect((await page.request.post('/api/v1/auth/sign-in/', { data: MEMBER })).ok()).toBe(true);
  // The chatbot list arrives while My page's code is still on its way.
  await slowDown(page, /\/api\/v1\/chatbots\/\?/, 1_500);
  await slowDown(page, /\/assets\/MyPage-[^/]*\.js$/, 2_500);
  await page.goto('/dashboard/chat');
  await page.getByTestId('nav-my-page').click();
  // It opens after the list arrived: the chat, gone by then, did not take the member back.
  await expect(page.getByRole('heading', { level: 1, name: 'My page' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/my-page$/);
});

test('Ctrl+K pressed while the chat is still loading keeps the focus in the search box once it opens', async ({ page }) => {
  await skipAnnouncementPopup(page);
  expect((await page.request.post('/api/v1/auth/sign-in/', { data: MEMBER })).ok()).toBe(true);
  await slowDown(page, /\/api\/v1\/chatbots\/\d+\/$/, 1_500);
  await page.goto('/dashboard/chat');
  const box = page.getByRole('searchbox', { name: 'Search chats' });
  await expect(box).toBeVisible();
  await page.keyboard.press('ControlOrMeta+K');
  await expect(box).toBeFocused();
  // The chat opens with its message box enabled, and the member is still in the search box.
  await expect(page.getByTestId('composer-input')).toBeEnabled();
  await expect(box).toBeFocused();
});

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { MEMBER, ensureActiveAnnouncement, signIn, signInThroughForm, skipAnnouncementPopup, type AnnouncementItem } from './support';
import { expectAccessibleOnPhone } from './screens';

/*
 * What only a real browser shows: a plain close lasts for the tab's session storage (a reload keeps
 * it, a new tab does not), "Don't show this again" lasts in local storage (every tab), focus lands in
 * the message box, and the server's newly activated announcement pops up. The popup's own logic is
 * covered by AnnouncementPopup.test.tsx.
 */

const API = '/api/v1';

const popup = (page: Page) => page.getByRole('dialog', { name: 'Announcement' });

const titleOf = (announcement: AnnouncementItem) => announcement.content.split('\n')[0]!.replace(/^#+\s*/, '');

async function openDashboard(page: Page) {
  await page.goto('/dashboard/chat');
  await expect(page.getByTestId('new-chat')).toBeVisible();
}

/**
 * No popup once the app has the active announcement and has rendered with it: its response is in
 * the page's resource timing, then two task turns (the query's answer, React's render) and two
 * animation frames (the modal's mount) pass. Ordering in the page's own event loop, not a wall-clock
 * wait, so a busy machine cannot turn this into a check made before the app decided.
 */
async function expectNoPopup(page: Page) {
  await page.evaluate(`new Promise((resolve) => {
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntries().some((entry) => entry.name.endsWith('/announcements/active/'))) return;
      observer.disconnect();
      const turn = () => new Promise((next) => setTimeout(next, 0));
      const frame = () => new Promise((next) => requestAnimationFrame(next));
      turn().then(turn).then(frame).then(frame).then(resolve);
    }).observe({ type: 'resource', buffered: true });
  })`);
  await expect(popup(page)).toHaveCount(0);
}

async function setActive(request: APIRequestContext, headers: Record<string, string>, id: number) {
  const response = await request.patch(`${API}/admin/announcements/${id}/`, { headers, data: { is_active: true } });
  expect(response.ok()).toBe(true);
}

test('closed without the box, the announcement stays away for the tab (also after a reload) and is back in a new tab', async ({ page, context, request }) => {
  const { active } = await ensureActiveAnnouncement(request);

  // Right after signing in, the active announcement pops up over the dashboard.
  await signInThroughForm(page, MEMBER, { showAnnouncement: true });
  await expect(popup(page).getByRole('heading', { name: titleOf(active) })).toBeVisible();
  await expect(popup(page).getByTestId('announcement-popup-date')).not.toBeEmpty();
  await expectAccessibleOnPhone(page, { restore: true });

  await popup(page).getByRole('button', { name: 'Close' }).click();
  await expect(popup(page)).toHaveCount(0);
  // Focus goes to the message box of the chat the dashboard opened, ready to type.
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await page.reload();
  await expectNoPopup(page);

  // A new tab has a new session storage: the app opened again shows it again.
  const second = await context.newPage();
  await openDashboard(second);
  await expect(popup(second).getByRole('heading', { name: titleOf(active) })).toBeVisible();
});

test('closed with "Don\'t show this again" (Escape), the announcement does not come back in a new tab', async ({ page, context, request }) => {
  await ensureActiveAnnouncement(request);
  await signIn(page, MEMBER, { showAnnouncement: true });
  await popup(page).getByRole('checkbox', { name: "Don't show this again" }).check();
  await page.keyboard.press('Escape');
  await expect(popup(page)).toHaveCount(0);
  await expect(page.getByTestId('composer-input')).toBeFocused();

  const second = await context.newPage();
  await openDashboard(second);
  await expectNoPopup(second);
});

test('a newly activated announcement pops up although the previous one was dismissed for good', async ({ page, request }) => {
  // The admin's API calls use their own request context, so the member's cookies stay untouched.
  const { active, items, headers } = await ensureActiveAnnouncement(request);
  const other = items.find((item) => item.id !== active.id)!;
  await skipAnnouncementPopup(page); // the current one, dismissed for good before the app starts

  await setActive(request, headers, other.id);
  try {
    await signIn(page, MEMBER, { showAnnouncement: true });
    await expect(popup(page).getByRole('heading', { name: titleOf(other) })).toBeVisible();
  } finally {
    await setActive(request, headers, active.id); // leave the demo data as the other tests expect it
  }
});

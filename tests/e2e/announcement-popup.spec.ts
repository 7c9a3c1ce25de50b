import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { MEMBER, ensureActiveAnnouncement, expectNoSeriousA11yViolations, signIn } from './support';

const API = '/api/v1';

const popup = (page: Page) => page.getByRole('dialog', { name: 'Announcement' });

/** Opens the dashboard and waits for the active announcement to be fetched before looking. */
async function openDashboard(page: Page) {
  const fetched = page.waitForResponse((response) => response.url().endsWith('/announcements/active/'));
  await page.goto('/dashboard/chat');
  await fetched;
  await expect(page.getByTestId('new-chat')).toBeVisible();
}

async function expectNoPopup(page: Page) {
  await page.waitForTimeout(500); // the popup opens on the render after the answer: give it the chance
  await expect(popup(page)).toHaveCount(0);
}

async function setActive(request: APIRequestContext, headers: Record<string, string>, id: number) {
  const response = await request.patch(`${API}/admin/announcements/${id}/`, { headers, data: { is_active: true } });
  expect(response.ok()).toBe(true);
}

test('the active announcement pops up until dismissed for good; a newly activated one pops up again', async ({ page, context, request }) => {
  // The admin's API calls use their own request context, so the member's cookies stay untouched.
  const { active, items, headers } = await ensureActiveAnnouncement(request);
  const other = items.find((item) => item.id !== active.id)!;

  await signIn(page, MEMBER, { showAnnouncement: true });
  await expect(popup(page)).toBeVisible();
  const title = active.content.split('\n')[0]!.replace(/^#+\s*/, '');
  await expect(popup(page).getByRole('heading', { name: title })).toBeVisible();
  await expect(popup(page).getByTestId('announcement-popup-date')).not.toBeEmpty();
  await expectNoSeriousA11yViolations(page);

  // Closed without the box: gone for this tab's session, also after a reload...
  await popup(page).getByRole('button', { name: 'Close' }).click();
  await expect(popup(page)).toHaveCount(0);
  // Focus goes to the message box of the chat the dashboard opened, ready to type.
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await page.reload();
  await expect(page.getByTestId('new-chat')).toBeVisible();
  await expectNoPopup(page);

  // ...but the app opened again (a new tab has a new session) shows it again.
  const second = await context.newPage();
  await openDashboard(second);
  await expect(popup(second)).toBeVisible();
  await popup(second).getByRole('checkbox', { name: "Don't show this again" }).check();
  await second.keyboard.press('Escape');
  await expect(popup(second)).toHaveCount(0);
  await expect(second.getByTestId('composer-input')).toBeFocused();

  const third = await context.newPage();
  await openDashboard(third);
  await expectNoPopup(third);
  await third.reload();
  await expectNoPopup(third);

  // The admin activates another announcement: it pops up, even though the previous one was dismissed.
  await setActive(request, headers, other.id);
  try {
    const fourth = await context.newPage();
    await openDashboard(fourth);
    await expect(popup(fourth)).toBeVisible();
    const otherTitle = other.content.split('\n')[0]!.replace(/^#+\s*/, '');
    await expect(popup(fourth).getByRole('heading', { name: otherTitle })).toBeVisible();
  } finally {
    await setActive(request, headers, active.id); // leave the demo data as the other tests expect it
  }
});

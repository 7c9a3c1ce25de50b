import { expect, test, type Locator } from '@playwright/test';
import { ADMIN, MEMBER, expectNoSeriousA11yViolations, signIn } from './support';

const API = '/api/v1';

/** The number a cell shows, its thousands separators removed. */
const numberIn = async (cell: Locator): Promise<number> => Number((await cell.innerText()).trim().split(/\s/)[0]!.replace(/,/g, ''));

test.beforeAll(async ({ request }) => {
  // Paid answers until the member (and so the default group) has used more than a credit this
  // month with a fraction, the case where rounding used to make the screens disagree.
  const signedIn = await request.post(`${API}/auth/sign-in/`, { data: MEMBER, headers: { 'x-client-kind': 'desktop' } });
  const body = (await signedIn.json()) as { access_token: string; member: { id: number } };
  const headers = { 'x-access-token': body.access_token };
  const list = (await (await request.get(`${API}/chatbots/?include_default=true&size=30`, { headers })).json()) as { items: { id: number; en_name: string }[] };
  const paid = list.items.find((bot) => bot.en_name === 'General Assistant')!.id;
  const usage = async () => ((await (await request.get(`${API}/members/${body.member.id}/usage/`, { headers })).json()) as { usage: number }).usage;
  for (let round = 0; round < 10 && (await usage()) < 1.5; round++) {
    const sends = await Promise.all(
      Array.from({ length: 10 }, () => request.post(`${API}/chatbots/${paid}/chat/`, { headers, data: { text: 'How many credits does this use?' } })),
    );
    for (const sent of sends) {
      expect(sent.status()).toBe(200);
      await sent.body();
    }
  }
  expect(await usage()).toBeGreaterThan(1.5);
});

test('the groups screen and the credits screen show the same members and credits used for a group', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/admin/groups');
  const groupRow = page.getByTestId('admin-group-row').filter({ hasText: 'Default group' });
  await expect(groupRow.getByRole('cell').nth(4)).toContainText(' of 50,000');
  const groupsMembers = await numberIn(groupRow.getByRole('cell').nth(1));
  const groupsUsed = await numberIn(groupRow.getByRole('cell').nth(4));
  expect(groupsUsed).toBeGreaterThan(0);
  // Credit figures are whole numbers (spec §9: rounded down), here as everywhere.
  expect(Number.isInteger(groupsUsed)).toBe(true);
  await page.screenshot({ path: 'test-results/intl/figures-groups-1440.png', fullPage: true });

  await page.goto('/admin/credits');
  const creditsRow = page.getByRole('row').filter({ has: page.getByRole('textbox', { name: 'Monthly limit of Default group' }) });
  await expect(creditsRow).toBeVisible();
  expect(await numberIn(creditsRow.getByRole('cell').nth(1))).toBe(groupsMembers);
  expect(await numberIn(creditsRow.getByRole('cell').nth(4))).toBe(groupsUsed);
  await page.screenshot({ path: 'test-results/intl/figures-credits-1440.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'test-results/intl/figures-credits-375.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
});

test("a member's own credit page adds up: used and remaining make the quota", async ({ page }) => {
  await signIn(page, MEMBER, { to: '/dashboard/credits' });
  await expect(page.getByTestId('credits-used')).toHaveText(/\d/);
  const used = await numberIn(page.getByTestId('credits-used'));
  const quota = await numberIn(page.getByTestId('credits-quota'));
  const remaining = await numberIn(page.getByTestId('credits-remaining'));
  expect(used).toBeGreaterThan(0);
  expect(used + remaining).toBe(quota);
  // The navigation's figure says the same.
  await expect(page.getByTestId('credit-usage').first()).toContainText(remaining.toLocaleString('en'));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/intl/figures-member-1440.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'test-results/intl/figures-member-375.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
});

import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, showInLanguage, signIn } from './support';

const API = '/api/v1';

/** A month `offset` months from now as the charts write it ("Jun 2026", "2026년 6월"). */
function monthName(offset: number, language: 'en' | 'ko'): string {
  const now = new Date();
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)),
  );
}

test.describe('admin dashboard and credits', () => {
  test.beforeAll(async ({ request }) => {
    // One answer this month, so the cards, the chart and the usage tables have something to show.
    const signedIn = await request.post(`${API}/auth/sign-in/`, { data: MEMBER, headers: { 'x-client-kind': 'desktop' } });
    const headers = { 'x-access-token': ((await signedIn.json()) as { access_token: string }).access_token };
    const list = (await (await request.get(`${API}/chatbots/?include_default=true&size=30`, { headers })).json()) as {
      items: { id: number; en_name: string }[];
    };
    const chatbot = list.items.find((bot) => bot.en_name === 'General Assistant')!.id;
    const sent = await request.post(`${API}/chatbots/${chatbot}/chat/`, { headers, data: { text: 'Dashboard figures, please.' } });
    expect(sent.status()).toBe(200);
    await sent.body();
  });

  test.afterAll(async ({ request }) => {
    const headers = await adminHeaders(request);
    const allocation = (await (await request.get(`${API}/admin/credits/allocation/?search_term=member%40demo.test`, { headers })).json()) as {
      members: { items: { id: number }[] };
    };
    const member = allocation.members.items[0]!;
    await request.put(`${API}/admin/credits/allocation/`, { headers, data: { members: [{ id: member.id, credit_quota: null }] } });
  });

  test('the console opens on the dashboard: cards and monthly charts', async ({ page }) => {
    await signIn(page, ADMIN, { to: '/admin' });
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('card-members')).toHaveText(/\d/);
    await expect(page.getByTestId('card-messages')).not.toHaveText('0');
    await expect(page.getByRole('group', { name: 'Messages' })).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expectNoSeriousA11yViolations(page);
  });

  test('each month of a chart shows its value on hover and on keyboard focus', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/admin/dashboard');
    const messages = page.getByRole('group', { name: 'Messages' });
    // This month has the answer of beforeAll: at least one message.
    const thisMonth = messages.getByRole('img', { name: new RegExp(`^${monthName(0, 'en')}: [1-9]`) });
    await thisMonth.hover();
    await expect(page.getByRole('tooltip')).toHaveText(new RegExp(`^${monthName(0, 'en')}: [1-9]`));
    await page.screenshot({ path: 'test-results/console2/dashboard-en-1440.png' });

    // The chart is one Tab stop, on the latest month; the arrow keys read the others.
    await page.getByRole('button', { name: 'Download CSV' }).focus();
    await page.keyboard.press('Tab');
    await expect(thisMonth).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    const lastMonth = messages.getByRole('img', { name: new RegExp(`^${monthName(-1, 'en')}: \\d`) });
    await expect(lastMonth).toBeFocused();
    await expect(page.getByRole('tooltip', { name: new RegExp(`^${monthName(-1, 'en')}: \\d`) })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.setViewportSize({ width: 375, height: 800 });
    await messages.scrollIntoViewIfNeeded();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: 'test-results/console2/dashboard-en-375.png' });
  });

  test('the charts write months and values in the member’s language', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/admin/dashboard');
    // Loaded before the language changes, so the app's own save of user-data cannot undo it.
    await expect(page.getByRole('group', { name: 'Messages' })).toBeVisible();
    await showInLanguage(page, 'ko');
    await expect(page.getByRole('heading', { level: 1, name: '대시보드' })).toBeVisible();
    const messages = page.getByRole('group', { name: '메시지' });
    const thisMonth = messages.getByRole('img', { name: new RegExp(`^${monthName(0, 'ko')}: [1-9]`) });
    await thisMonth.focus();
    await expect(page.getByRole('tooltip')).toHaveText(new RegExp(`^${monthName(0, 'ko')}: [1-9]`));
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: 'test-results/console2/dashboard-ko-375.png' });

    await page.setViewportSize({ width: 1440, height: 900 });
    await thisMonth.hover();
    await expect(page.getByRole('tooltip')).toHaveText(new RegExp(`^${monthName(0, 'ko')}: [1-9]`));
    await page.screenshot({ path: 'test-results/console2/dashboard-ko-1440.png' });
  });

  test('an admin changes a member’s monthly limit and reads the usage tables', async ({ page }) => {
    await signIn(page, ADMIN, { to: '/admin/credits' });
    await expect(page.getByRole('heading', { level: 1, name: 'Credits' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Monthly limit of Default group' })).toBeDisabled();
    await expectNoSeriousA11yViolations(page);

    await page.getByPlaceholder('Search by name or email').fill('member@demo.test');
    await expect(page).toHaveURL(/search=member/);
    const own = page.getByRole('textbox', { name: /^Own limit of / });
    await expect(own).toHaveCount(1);
    await own.fill('4321');
    await page.getByRole('button', { name: 'Save changes (1)' }).click();
    await expect(page.getByText('The credit allocation was saved.')).toBeVisible();
    await expect(page.getByTestId('allocation-members')).toContainText('4,321');

    await page.getByRole('tab', { name: 'Usage' }).click();
    await expect(page).toHaveURL(/tab=usage/);
    await expect(page.getByTestId('usage-llm')).toContainText('Default group');
    await page.getByText('Member', { exact: true }).first().click();
    await expect(page.getByTestId('usage-llm')).toContainText('member@demo.test');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('tab', { name: 'Purchase history' }).click();
    await expect(page.getByTestId('credit-entries')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('a member opens their credits page from the navigation', async ({ page }) => {
    await signIn(page, MEMBER);
    await page.getByTestId('credit-usage-link').first().click();
    await expect(page).toHaveURL(/\/dashboard\/credits/);
    await expect(page.getByRole('heading', { level: 1, name: 'Credits' })).toBeVisible();
    await expect(page.getByTestId('credits-used')).toHaveText(/\d/);
    await expect(page.getByTestId('credit-entries')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

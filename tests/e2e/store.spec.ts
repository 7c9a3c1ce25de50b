import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

/** A public chatbot of the admin in the Programming category, published through the API. */
async function published(request: APIRequestContext, name: string, features: string): Promise<void> {
  const headers = await adminHeaders(request, ADMIN);
  const { items: categories } = (await (await request.get('/api/v1/categories/', { headers })).json()) as { items: { id: number; en_name: string }[] };
  const programming = categories.find((category) => category.en_name === 'Programming')!;
  const { id } = (await (await request.post('/api/v1/chatbots/', { headers })).json()) as { id: number };
  await request.patch(`/api/v1/chatbots/${id}/`, {
    headers,
    data: { en_name: name, ko_name: name, en_key_features: features, category_ids: [programming.id] },
  });
  await request.patch(`/api/v1/chatbots/${id}/access/`, { headers, data: { is_public: true, member_group_ids: [] } });
  expect((await request.post(`/api/v1/admin/chatbots/${id}/process-publish-request/`, { headers, data: { approve: true } })).ok()).toBe(true);
}

test('a member finds a chatbot in the Store by category, search and order, starts a chat, finds it in recents, and removes it', async ({ page, request }) => {
  const name = `Regex Tutor ${Date.now()}`;
  await published(request, name, 'Explains regular expressions step by step.');
  await signIn(page, MEMBER, { to: '/dashboard/store' });
  // The demo admin's Trip Planner (other specs publish chatbots with longer names), among the
  // results rather than the recent chatbots, where earlier specs may have put it.
  const results = page.getByTestId('store-results');
  const tripPlanner = results.getByTestId('store-card').filter({ has: page.getByText('Trip Planner', { exact: true }) });
  await expect(tripPlanner).toBeVisible();
  await expectAccessibleOnPhone(page, { restore: true });

  // Category: only Programming chatbots; the choice is in the URL.
  await page.getByRole('group', { name: 'Categories' }).getByText('Programming', { exact: true }).click();
  await expect(page).toHaveURL(/category=\d+/);
  await expect(tripPlanner).toHaveCount(0);
  await expect(results.getByTestId('store-card').filter({ hasText: name })).toBeVisible();

  // Search (debounced into the URL) and order.
  await page.getByRole('textbox', { name: 'Search chatbots' }).fill('regular expressions');
  await expect(page).toHaveURL(/search=regular/);
  await expect(results.getByTestId('store-card')).toHaveCount(1);
  await page
    .getByRole('textbox', { name: 'Sort by' })
    .or(page.getByRole('combobox', { name: 'Sort by' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Newest' }).click();
  await expect(page).toHaveURL(/order=created_at.desc/);
  await page.screenshot({ path: 'test-results/store-list.png' });

  // The detail shows the model; Start chat opens the chat and keeps it among the recent ones.
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  const detail = page.getByTestId('store-detail');
  await expect(detail).toContainText('Explains regular expressions step by step.');
  await expect(page.getByTestId('store-model')).toContainText(/tokens/);
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/store-detail.png' });
  await page.getByTestId('start-chat').click();
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
  await expect(page.getByTestId('chatbot-name')).toHaveText(name);

  // In the chat's switcher, under Recent (only it: the others are under All chatbots).
  await page.getByTestId('chatbot-switcher').click();
  await expect(page.getByTestId('chatbot-switcher-recent')).toContainText(name);
  const all = page.getByTestId('chatbot-switcher-all');
  await expect(all).toContainText('All chatbots');
  await expect(all.getByRole('option').first()).toBeVisible();
  await expect(all.getByRole('option', { name })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');

  await page.goto('/dashboard/store');
  const recent = page.getByTestId('store-recents').getByTestId('store-card').filter({ hasText: name });
  await expect(recent).toBeVisible();
  await recent.getByRole('button', { name: `Remove ${name} from recent` }).click();
  await expect(recent).toHaveCount(0);
});

import { expect, test, type APIRequestContext } from '@playwright/test';
import { MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const API = '/api/v1';

/** The member's key for General Assistant, made through the API as the create dialog would. */
async function createKey(request: APIRequestContext, name: string): Promise<string> {
  const headers = await adminHeaders(request, MEMBER);
  const { items } = (await (await request.get(`${API}/chatbots/?include_default=true&size=30`, { headers })).json()) as {
    items: { id: number; en_name: string }[];
  };
  const chatbot = items.find((item) => item.en_name === 'General Assistant')!;
  const created = await request.post(`${API}/apikeys/`, { headers, data: { name, chatbot_ids: [chatbot.id] } });
  expect(created.ok()).toBe(true);
  return ((await created.json()) as { key: string }).key;
}

/** The OpenAI-compatible API, called the way a developer's script would (Node's fetch, no cookie). */
function openAi(origin: string, key: string) {
  const base = `${origin}/api/v1/openai`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const models = async () => ((await (await fetch(`${base}/models`, { headers })).json()) as { data: { id: string; name: string }[] }).data;
  const ask = async (model: string) =>
    fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello from a script' }] }),
    });
  return { models, ask };
}

test('a member creates an API key for a chatbot, copies it from the one-time reveal, and sees it listed as active', async ({ page }) => {
  const name = uniqueName('Script');
  await signIn(page, MEMBER, { to: '/dashboard/developers' });
  await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
  await expect(page.getByTestId('base-url')).toContainText('/api/v1/openai');
  await expectNoSeriousA11yViolations(page);

  await page.getByTestId('create-key').click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByTestId('key-name').fill(name);
  const chatbots = dialog.getByTestId('key-chatbots');
  await chatbots.click();
  await page
    .locator(`#${await chatbots.getAttribute('aria-controls')}`)
    .getByRole('option', { name: 'General Assistant' })
    .click();
  await page.keyboard.press('Escape');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByTestId('save-key').click();

  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const key = (await reveal.getByTestId('revealed-key').textContent())!.trim();
  expect(key).toMatch(/^cbp_live_[A-Za-z0-9_-]{43}$/);
  await reveal.getByTestId('copy-key').click();
  await expect(reveal.getByTestId('copy-key')).toHaveAttribute('data-copied', 'true');
  // The browser's clipboard (not in the Node typings this spec compiles with).
  const clipboardText = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
  expect(await page.evaluate(clipboardText)).toBe(key);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/developers-reveal.png' });
  await reveal.getByTestId('reveal-done').click();
  await expect(page.getByText(key)).toHaveCount(0);

  const row = page.getByTestId('api-key-row').filter({ hasText: name });
  await expect(row.getByTestId('key-status')).toHaveText('Active');
  await expect(row).toContainText(key.slice(0, 15));
});

test('a key calls the OpenAI-compatible API for the chatbot it allows, and the call shows as its usage (1440 and 375 px)', async ({ page }) => {
  const name = uniqueName('Script');
  const key = await createKey(page.request, name);
  await signIn(page, MEMBER);
  const api = openAi(new URL(page.url()).origin, key);
  // The model is the chatbot the key allows.
  const models = await api.models();
  expect(models.map((model) => model.name)).toEqual(['General Assistant']);
  const answered = await api.ask(models[0]!.id);
  expect(answered.status).toBe(200);
  const completion = (await answered.json()) as { choices: { message: { content: string } }[] };
  expect(completion.choices[0]!.message.content).toContain('Demo model');

  // The call is the key's usage this month.
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('/dashboard/developers');
  const row = page.getByTestId('api-key-row').filter({ hasText: name });
  await expect(row.getByTestId('key-usage')).toContainText('1 request');
  await page.screenshot({ path: 'test-results/developers-1440.png', fullPage: true });
  await expectAccessibleOnPhone(page);
  await page.screenshot({ path: 'test-results/developers-375.png', fullPage: true });
});

test('a revoked key is refused by the API after the member confirms', async ({ page }) => {
  const name = uniqueName('Script');
  const key = await createKey(page.request, name);
  await signIn(page, MEMBER);
  const api = openAi(new URL(page.url()).origin, key);
  const [model] = await api.models();
  expect((await api.ask(model!.id)).status).toBe(200);

  await page.goto('/dashboard/developers');
  const row = page.getByTestId('api-key-row').filter({ hasText: name });
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke “${name}”?` });
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(row.getByTestId('key-status')).toHaveText('Revoked');

  const refused = await api.ask(model!.id);
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
});

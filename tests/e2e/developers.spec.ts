import { expect, test } from '@playwright/test';
import { MEMBER, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('a member creates an API key, copies it, calls the OpenAI-compatible API with it, and revokes it', async ({ page }) => {
  // Five axe runs and two viewport changes on a shared machine.
  test.setTimeout(150_000);
  const name = uniqueName('Script');
  await signIn(page, MEMBER);
  await page.goto('/dashboard/developers');
  await expect(page.getByRole('heading', { level: 1, name: 'Developers' })).toBeVisible();
  await expect(page.getByTestId('base-url')).toContainText('/api/v1/openai');
  await expectNoSeriousA11yViolations(page);

  await page.getByTestId('create-key').click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByTestId('key-name').fill(name);
  const chatbots = dialog.getByTestId('key-chatbots');
  await chatbots.click();
  await page.locator(`#${await chatbots.getAttribute('aria-controls')}`).getByRole('option', { name: 'General Assistant' }).click();
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

  // The API, called the way a developer's script would: the model is the chatbot the key allows.
  const base = `${new URL(page.url()).origin}/api/v1/openai`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const models = (await (await fetch(`${base}/models`, { headers })).json()) as { data: { id: string; name: string }[] };
  expect(models.data.map((model) => model.name)).toEqual(['General Assistant']);
  const ask = () => fetch(`${base}/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: models.data[0]!.id, messages: [{ role: 'user', content: 'Hello from a script' }] }) });
  const answered = await ask();
  expect(answered.status).toBe(200);
  const completion = (await answered.json()) as { choices: { message: { content: string } }[] };
  expect(completion.choices[0]!.message.content).toContain('Demo model');

  // The call is the key's usage this month, and it was used just now.
  await page.reload();
  await expect(row.getByTestId('key-usage')).toContainText('1 request');
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.screenshot({ path: 'test-results/developers-1440.png', fullPage: true });
  await expectAccessibleOnPhone(page);
  await page.screenshot({ path: 'test-results/developers-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke “${name}”?` });
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(row.getByTestId('key-status')).toHaveText('Revoked');

  const refused = await ask();
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
});

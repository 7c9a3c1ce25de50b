import { expect, test } from '@playwright/test';
import { type FakeSearchUpstream, startFakeSearchUpstream } from '../fixtures/fakeSearchUpstream';
import { MEMBER, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

/** playwright.config.ts points the server's SEARCH_URL at the port after the server's. */
const searchPort = Number(process.env.E2E_PORT) + 1;
let search: FakeSearchUpstream;

test.beforeAll(async () => {
  search = await startFakeSearchUpstream({ port: searchPort });
});
test.afterAll(async () => {
  await search?.close();
});

test('web search: the mode button searches the web for the answer, whose sources show as links, also in the history', async ({ page }) => {
  await signIn(page, MEMBER);
  const toggle = page.getByRole('button', { name: 'Web search' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(toggle).not.toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');

  const box = page.getByTestId('composer-input');
  await box.fill('pglite release notes');
  await box.press('Enter');
  const answer = page.getByTestId('chatbot-message').last();
  await expect(answer.getByRole('link', { name: 'About pglite release notes' })).toHaveAttribute('href', 'https://example.org/pglite%20release%20notes');
  await expect(answer.getByRole('region', { name: 'Sources' })).toContainText('example.com');
  expect(search.queries).toContain('pglite release notes');
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
  await expectAccessibleOnPhone(page, { restore: true });

  // The sources are kept with the answer.
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);
  await page.reload();
  await expect(page.getByTestId('chatbot-message').last().getByRole('link', { name: 'Latest news' })).toBeVisible();
});

test('web search: a failing search service gives a clear message and the text back', async ({ page }) => {
  search.setFailStatus(502);
  try {
    await signIn(page, MEMBER);
    const toggle = page.getByRole('button', { name: 'Web search' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const box = page.getByTestId('composer-input');
    await box.fill('is anything out there');
    await box.press('Enter');
    await expect(page.getByTestId('chat-error')).toContainText('Web search failed');
    await expect(box).toHaveValue('is anything out there');
    await expectAccessibleOnPhone(page, { restore: true });
  } finally {
    search.setFailStatus(null);
  }
});

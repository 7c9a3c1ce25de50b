import { expect, test, type Page } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';

const setLanguage = (page: Page, language: 'en' | 'ko') =>
  page.addInitScript((lng) => {
    const stored = JSON.parse(localStorage.getItem('user-data') ?? '{"state":{"member":null},"version":0}') as { state: Record<string, unknown> };
    localStorage.setItem('user-data', JSON.stringify({ ...stored, state: { ...stored.state, language: lng } }));
  }, language);

test('an admin lists the default chatbots in the console and edits one in the editor; members get no edit', async ({ page, request }) => {
  await signIn(page, ADMIN);
  await page.goto('/admin/default-chatbots');
  const rows = page.getByTestId('default-chatbot-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Everyone');
  await expectNoSeriousA11yViolations(page);

  // Edit: the Studio editor for admins, with no delete and "Every member" instead of private or public.
  await rows.first().getByTestId('edit-default-chatbot').click();
  await expect(page.getByTestId('instructions')).toBeVisible();
  await expect(page.getByTestId('delete-chatbot')).toHaveCount(0);
  const instructions = `Answer briefly. ${Date.now().toString(36)}`;
  await page.getByTestId('instructions').fill(instructions);
  await page.getByTestId('save-chatbot').click();
  await expect(page.getByText('Chatbot saved.')).toBeVisible();
  await page.getByTestId('open-access').click();
  const dialog = page.getByRole('dialog', { name: 'Who can use this chatbot' });
  await expect(dialog.getByTestId('access-everyone')).toBeChecked();
  await expect(dialog.getByTestId('access-public')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Back to default chatbots' }).click();
  await expect(page).toHaveURL(/\/admin\/default-chatbots$/);

  // Saved for everyone; a member's change is refused and their editor has no form.
  const headers = await adminHeaders(request);
  const list = (await (await request.get('/api/v1/admin/chatbots/?is_default=true', { headers })).json()) as { items: { id: number; system_instructions: string }[] };
  expect(list.items[0]!.system_instructions).toBe(instructions);
  const memberHeaders = await adminHeaders(request, MEMBER);
  expect((await request.patch(`/api/v1/chatbots/${list.items[0]!.id}/`, { headers: memberHeaders, data: { system_instructions: 'mine' } })).status()).toBe(403);
});

test('the default chatbots screen in English and Korean at 1440 and 375 px', async ({ page }) => {
  await signIn(page, ADMIN);
  for (const language of ['ko', 'en'] as const) {
    await setLanguage(page, language);
    for (const [width, height] of [[1440, 900], [375, 812]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto('/admin/default-chatbots');
      await expect(page.getByRole('heading', { level: 1, name: language === 'ko' ? '기본 챗봇' : 'Default chatbots' })).toBeVisible();
      await expect(page.getByTestId('default-chatbot-row')).toHaveCount(3);
      if (width === 375) await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `test-results/public/default-chatbots-${language}-${width}.png`, fullPage: true });
    }
  }
});

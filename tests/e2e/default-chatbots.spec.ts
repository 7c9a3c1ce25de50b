import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';
import { SCREEN_CHECKS } from './screens';

const setLanguage = (page: Page, language: 'en' | 'ko') =>
  page.addInitScript((lng) => {
    const stored = JSON.parse(localStorage.getItem('user-data') ?? '{"state":{"member":null},"version":0}') as { state: Record<string, unknown> };
    localStorage.setItem('user-data', JSON.stringify({ ...stored, state: { ...stored.state, language: lng } }));
  }, language);

test('an admin lists the default chatbots in the console and edits one in the editor; members get no edit', async ({ page, request }) => {
  await signIn(page, ADMIN, { to: '/admin/default-chatbots' });
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
  const list = (await (await request.get('/api/v1/admin/chatbots/?is_default=true', { headers })).json()) as {
    items: { id: number; system_instructions: string }[];
  };
  expect(list.items[0]!.system_instructions).toBe(instructions);
  const memberHeaders = await adminHeaders(request, MEMBER);
  expect((await request.patch(`/api/v1/chatbots/${list.items[0]!.id}/`, { headers: memberHeaders, data: { system_instructions: 'mine' } })).status()).toBe(403);
});

test.describe('starting groups', () => {
  const writingCoach = async (request: APIRequestContext) => {
    const headers = await adminHeaders(request);
    const { items } = (await (await request.get('/api/v1/admin/chatbots/?is_default=true', { headers })).json()) as {
      items: { id: number; en_name: string; member_group_ids: number[] }[];
    };
    return { headers, coach: items.find((chatbot) => chatbot.en_name === 'Writing Coach')! };
  };

  // The specs share one server: every other spec expects members to start in the first default chatbot.
  test.afterEach(async ({ request }) => {
    const { headers, coach } = await writingCoach(request);
    const reset = await request.patch(`/api/v1/chatbots/${coach.id}/access/`, {
      headers,
      data: { is_public: false, member_group_ids: coach.member_group_ids, default_member_group_ids: [] },
    });
    expect(reset.ok()).toBe(true);
  });

  test("an admin chooses the group that starts with a default chatbot; that group's members open it first", async ({ page, browser, request }) => {
    const { coach } = await writingCoach(request);
    await signIn(page, ADMIN);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/admin/default-chatbots');
    const row = page.getByTestId('default-chatbot-row').filter({ hasText: 'Writing Coach' });
    await expect(row.getByTestId('starting-groups')).toContainText('No group');
    await row.getByRole('button', { name: 'Choose groups that start with Writing Coach' }).click();
    const dialog = page.getByRole('dialog', { name: 'Groups that start with Writing Coach' });
    const select = dialog.getByRole('combobox', { name: 'Member groups' });
    await select.click();
    await page.getByRole('option', { name: 'Default group' }).click();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: 'test-results/console/default-chatbots-starting-dialog-en-375.png' });
    // Tab on from the field closes its list, which covers Save on a phone.
    await select.press('Tab');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Starting groups of Writing Coach saved.')).toBeVisible();
    await expect(row.getByTestId('starting-groups')).toContainText('Default group');

    // Listed after a reload too, and the member (Default group) starts in it.
    await page.reload();
    await expect(page.getByTestId('default-chatbot-row').filter({ hasText: 'Writing Coach' }).getByTestId('starting-groups')).toContainText('Default group');
    const member = await (await browser.newContext()).newPage();
    await signIn(member, MEMBER);
    await member.goto('/dashboard/chat');
    await expect(member).toHaveURL(new RegExp(`/dashboard/chat/${coach.id}$`));
    await expect(member.getByTestId('chatbot-name').first()).toHaveText('Writing Coach');
    await member.context().close();
  });
});

test('the default chatbots screen in English at 1440 px and in Korean at 375 px', async ({ page }) => {
  await signIn(page, ADMIN);
  for (const { language, width, height } of SCREEN_CHECKS) {
    await setLanguage(page, language);
    await page.setViewportSize({ width, height });
    await page.goto('/admin/default-chatbots');
    await expect(page.getByRole('heading', { level: 1, name: language === 'ko' ? '기본 챗봇' : 'Default chatbots' })).toBeVisible();
    await expect(page.getByTestId('default-chatbot-row')).toHaveCount(3);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `test-results/public/default-chatbots-${language}-${width}.png`, fullPage: true });
  }
});

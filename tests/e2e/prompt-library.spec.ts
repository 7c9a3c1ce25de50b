import { expect, test, type Page } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, showInLanguage, signIn } from './support';
import { PHONE_VIEWPORT, SCREEN_CHECKS } from './screens';

const API = '/api/v1';
const DESKTOP = { width: 1440, height: 900 };
const SHOTS = 'test-results/prompts';
/** One run's names: the e2e server's database outlives a run, and a name is unique in its scope. */
const token = () => Date.now().toString(36);

const composer = (page: Page) => page.getByRole('combobox', { name: /Message|메시지/ });
/** /dashboard/chat redirects to the first default chatbot: what is typed before would be lost with the old page. */
async function openChat(page: Page) {
  await page.goto('/dashboard/chat');
  await page.waitForURL(/\/dashboard\/chat\/\d+$/);
  await expect(composer(page)).toBeEnabled();
}
const menu = (page: Page) => page.getByRole('listbox', { name: /Prompts|프롬프트/ });

test.describe('Prompt library', () => {
  test.describe.serial('from the console to the message box', () => {
    const run = token();
    const tenantName = `Weekly ${run}`;
    const ownName = `Mine ${run}`;

    test('an admin adds a tenant prompt in the console; the same name again is refused under the field', async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      await signIn(page, ADMIN, { to: '/admin/prompts' });
      await expect(page.getByRole('heading', { level: 1, name: 'Prompt library' })).toBeVisible();
      await page.getByRole('button', { name: 'New prompt' }).click();
      const editor = page.getByRole('dialog', { name: 'New prompt' });
      await editor.getByRole('textbox', { name: 'Name' }).fill(tenantName);
      await editor.getByRole('textbox', { name: 'Text' }).fill('Summarise {{topic}} in three bullet points.');
      await editor.getByRole('button', { name: 'Add prompt' }).click();
      await expect(editor).toBeHidden();
      await expect(page.getByTestId('admin-prompt-row').filter({ hasText: tenantName })).toContainText('topic');
      await page.getByRole('button', { name: 'New prompt' }).click();
      await editor.getByRole('textbox', { name: 'Name' }).fill(tenantName.toUpperCase());
      await editor.getByRole('textbox', { name: 'Text' }).fill('Anything');
      await editor.getByRole('button', { name: 'Add prompt' }).click();
      await expect(editor.getByText('Another prompt already has this name.')).toBeVisible();
      await editor.getByRole('button', { name: 'Cancel' }).click();
    });

    test('a member adds their own on My page, then inserts each with / by keyboard, fills a variable and sends', async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      await signIn(page, MEMBER, { to: '/dashboard/my-page' });
      await page.getByTestId('my-new-prompt').click();
      const own = page.getByRole('dialog', { name: 'New prompt' });
      await own.getByRole('textbox', { name: 'Name' }).fill(ownName);
      await own.getByRole('textbox', { name: 'Text' }).fill('Answer in plain words, like to a new colleague.');
      await own.getByRole('button', { name: 'Add prompt' }).click();
      await expect(own).toBeHidden();
      await expect(page.getByRole('list', { name: 'My prompts' })).toContainText(ownName);

      // The tenant's prompt, first in the menu, asks for its variable before it is inserted.
      await openChat(page);
      const box = composer(page);
      await box.focus();
      await page.keyboard.type(`/${run}`);
      await expect(menu(page).getByRole('option')).toHaveText([new RegExp(tenantName), new RegExp(ownName)]);
      await expect(box).toHaveAttribute('aria-activedescendant', (await menu(page).getByRole('option').first().getAttribute('id'))!);
      await page.keyboard.press('Enter');
      const fill = page.getByRole('dialog', { name: `Fill in “${tenantName}”` });
      await expect(fill.getByRole('textbox', { name: 'topic' })).toBeFocused();
      await page.keyboard.type('the quarterly sales');
      await page.keyboard.press('Enter');
      await expect(fill).toBeHidden();
      await expect(box).toHaveValue('Summarise the quarterly sales in three bullet points.');
      await expect(box).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('member-message').last()).toHaveText('Summarise the quarterly sales in three bullet points.');

      // The member's own, second in the menu: ArrowDown, then Enter inserts it as it is.
      await expect(page.getByTestId('stop-button')).toBeHidden();
      await box.focus();
      await page.keyboard.type(`/${run}`);
      await expect(menu(page)).toBeVisible();
      await page.keyboard.press('ArrowDown');
      await expect(menu(page).getByRole('option', { name: new RegExp(ownName) })).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(box).toHaveValue('Answer in plain words, like to a new colleague.');
      await page.keyboard.type(' What is a prompt?');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('member-message').last()).toHaveText('Answer in plain words, like to a new colleague. What is a prompt?');
    });
  });

  /** A tenant prompt and one of the admin's own, both named with this run's token. */
  async function seedPrompts(page: Page, run: string) {
    const headers = await adminHeaders(page.request);
    const tenantPrompt = await page.request.post(`${API}/admin/prompts/`, {
      headers,
      data: { name: `주간 보고 ${run}`, text: '주제: {{주제}}. 세 줄로 요약해 주세요.' },
    });
    expect(tenantPrompt.status()).toBe(200);
    const own = await page.request.post(`${API}/prompts/`, { headers, data: { name: `번역 ${run}`, text: '다음 글을 쉬운 영어로 옮겨 주세요: {{text}}' } });
    expect(own.status()).toBe(200);
  }

  async function showAt(page: Page, language: 'en' | 'ko', width: number) {
    await signIn(page, ADMIN);
    await page.setViewportSize(width === 375 ? PHONE_VIEWPORT : DESKTOP);
    await showInLanguage(page, language);
  }

  // The screens of the flow above, each language and width in tests of their own (axe is slow).
  for (const { language, width } of SCREEN_CHECKS) {
    test(`the console screen and its editor in ${language} at ${width} px, with axe`, async ({ page }) => {
      const run = token();
      await seedPrompts(page, run);
      await showAt(page, language, width);
      await page.goto('/admin/prompts');
      const row = page.getByTestId('admin-prompt-row').filter({ hasText: run });
      await expect(row).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/console-${language}-${width}.png`, fullPage: true });
      await row.getByRole('button').click();
      // The row's menu opens on its first item, with nothing else focusable in it (the theme's Menu default).
      const edit = page.getByRole('menuitem', { name: language === 'ko' ? '수정' : 'Edit' });
      await expect(edit).toBeFocused();
      await expectNoSeriousA11yViolations(page);
      await edit.click();
      // The editor says the rules of the shared schema before anything is sent.
      await page
        .getByRole('dialog')
        .getByRole('textbox', { name: language === 'ko' ? '내용' : 'Text' })
        .fill('{{두 단어}}');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: language === 'ko' ? '저장' : 'Save' })
        .click();
      await expect(page.getByRole('dialog').getByText(language === 'ko' ? /변수는 \{\{topic\}\}처럼/ : /Write a variable as \{\{topic\}\}/)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/editor-${language}-${width}.png` });
    });

    test(`My prompts, the / menu and the variable form in ${language} at ${width} px, with axe`, async ({ page }) => {
      const run = token();
      await seedPrompts(page, run);
      await showAt(page, language, width);
      await page.goto('/dashboard/my-page');
      const mine = page.getByTestId('my-prompt').filter({ hasText: run });
      await expect(mine).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await mine.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/my-page-${language}-${width}.png` });

      await openChat(page);
      await composer(page).focus();
      await page.keyboard.type(`/${run}`);
      await expect(menu(page).getByRole('option')).toHaveCount(2);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/menu-${language}-${width}.png` });
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.keyboard.type('분기 매출');
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/variables-${language}-${width}.png` });
      await page.keyboard.press('Enter');
      await expect(composer(page)).toHaveValue('주제: 분기 매출. 세 줄로 요약해 주세요.');
    });
  }
});

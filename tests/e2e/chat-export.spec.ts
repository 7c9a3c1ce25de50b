import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, createSession, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';
import { SCREEN_CHECKS } from './screens';

/** Chat export (issue 23): the chat header's Export menu, its two downloads, the JSON's import and the print view. */

const SHOTS = 'test-results/export';

async function openExportMenu(page: Page) {
  await page.getByTestId('export-session').click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

test.describe('exporting a chat', () => {
  test('downloads the chat as Markdown and as JSON under its Korean title, and the JSON imports back as a new chat', async ({ page }) => {
    await signIn(page, ADMIN);
    const title = uniqueName('여행 계획');
    const { chatbotId, hashId } = await createSession(page, title);
    await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
    await expect(page.getByTestId('session-title')).toHaveText(title);

    const menu = await openExportMenu(page);
    await expect(menu.getByRole('menuitem')).toHaveText(['Markdown (.md)', 'JSON (.json, can be imported)', 'Print or save as PDF']);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/export-menu-en-1440.png` });

    const markdownDownload = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'Markdown (.md)' }).click();
    const markdown = await markdownDownload;
    expect(markdown.suggestedFilename()).toBe(`${title}.md`);
    const markdownText = await readFile((await markdown.path())!, 'utf8');
    expect(markdownText).toMatch(new RegExp(`^# ${title}\\n`));
    expect(markdownText).toContain(`### Demo Admin · `);
    expect(markdownText).toContain(`Hello for ${title}`);

    const jsonDownload = page.waitForEvent('download');
    await (await openExportMenu(page)).getByRole('menuitem', { name: 'JSON (.json, can be imported)' }).click();
    const json = await jsonDownload;
    expect(json.suggestedFilename()).toBe(`${title}.json`);
    const jsonPath = (await json.path())!;
    const document = JSON.parse(await readFile(jsonPath, 'utf8')) as { version: number; title: string; messages: { speaker: string; text: string }[] };
    expect(document).toMatchObject({ version: 1, title });
    expect(document.messages.map((message) => message.speaker)).toEqual(['member', 'chatbot']);

    // My chats' Import button takes the file back: a new chat with the same messages opens.
    await page
      .getByTestId('import-session')
      .locator('xpath=..')
      .locator('input[type=file]')
      .setInputFiles({
        name: json.suggestedFilename(),
        mimeType: 'application/json',
        buffer: await readFile(jsonPath),
      });
    await expect(page.getByText('The chat was imported.')).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(`/${hashId}$`));
    await expect(page.getByTestId('session-title')).toHaveText(title);
    await expect(page.getByTestId('member-message')).toContainText(`Hello for ${title}`);
    await expect(page.getByTestId('chatbot-message')).toContainText('Demo model');
    // Each imported message says so, quietly: it was not sent or answered in this chat.
    const marks = page.getByTestId('imported-mark');
    await expect(marks).toHaveCount(2);
    await marks.last().hover();
    await expect(page.getByRole('tooltip')).toHaveText('Imported from a file: this message was not sent or answered in this chat.');

    await showInLanguage(page, 'ko');
    await expect(page.getByTestId('imported-mark').first()).toContainText('가져온 메시지');
    await expect((await openExportMenu(page)).getByRole('menuitem')).toHaveText(['마크다운 (.md)', 'JSON (.json, 가져오기 가능)', '인쇄 또는 PDF로 저장']);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/export-menu-ko-1440.png` });
  });

  for (const { language, width, height } of SCREEN_CHECKS) {
    test(`opens the print view from the menu and offers the browser's print dialog (${language} at ${width} px)`, async ({ page }) => {
      await signIn(page, ADMIN);
      await page.setViewportSize({ width, height });
      const title = uniqueName('Print me');
      const { chatbotId, hashId } = await createSession(page, title);
      // Counts the print dialogs asked for instead of opening one.
      await page.addInitScript('window.print = () => { window.__printed = (window.__printed ?? 0) + 1; }');
      await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
      if (language === 'ko') await showInLanguage(page, 'ko');
      const menu = await openExportMenu(page);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/export-menu-${language}-${width}.png` });
      await menu.getByTestId('export-print').click();
      await expect(page).toHaveURL(new RegExp(`/print/chats/${hashId}$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      const messages = page.getByTestId('print-message');
      await expect(messages).toHaveCount(2);
      await expect(messages.first().getByTestId('print-speaker')).toHaveText('Demo Admin');
      await expect(messages.first()).toContainText(`Hello for ${title}`);
      await expect(messages.nth(1)).toContainText('Demo model');
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/print-${language}-${width}.png`, fullPage: true });

      await page.getByTestId('print-button').click();
      expect(await page.evaluate('window.__printed')).toBe(1);
      // On paper the toolbar is gone: the chat alone.
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByTestId('print-toolbar')).toBeHidden();
      await page.screenshot({ path: `${SHOTS}/print-media-${language}-${width}.png`, fullPage: true });
      await page.emulateMedia({ media: 'screen' });
      await page.getByTestId('print-toolbar').getByRole('link').click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/chat/${chatbotId}/${hashId}$`));
    });
  }
});

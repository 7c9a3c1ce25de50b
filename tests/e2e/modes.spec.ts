import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { MEMBER, adminHeaders, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

/** The first default chatbot (General Assistant) runs a model that can think. */
async function openChat(page: Page) {
  await signIn(page, MEMBER);
  await page.waitForURL(/\/dashboard\/chat\/\d+$/);
}

async function send(page: Page, text: string) {
  const box = page.getByTestId('composer-input');
  await box.fill(text);
  await box.press('Enter');
}

const lastAnswer = (page: Page) => page.getByTestId('chatbot-message').last();
const finished = (page: Page) => expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 20_000 });

test('thinking: the reasoning shows while the model thinks, then folds to "Thought for N s", also in the history', async ({ page }) => {
  await openChat(page);
  const thinking = page.getByTestId('thinking-mode-button');
  // Once the chatbot has loaded: its model can think, and the message box has taken focus.
  await expect(thinking).not.toHaveAttribute('aria-disabled');
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await thinking.focus();
  await page.keyboard.press('Enter');
  await expect(thinking).toHaveAttribute('aria-pressed', 'true');

  // Watched in the page from before the send: the block is open with "Thinking…" while the model reasons.
  const sawThinkingOpen = page.waitForFunction(
    () => {
      // This project's e2e types carry no DOM library; the function runs in the page.
      const doc = (
        globalThis as unknown as {
          document: { querySelector(selector: string): { getAttribute(name: string): string | null; textContent: string | null } | null };
        }
      ).document;
      const toggle = doc.querySelector('[data-testid="thinking-toggle"]');
      return (
        toggle?.getAttribute('aria-expanded') === 'true' && toggle.textContent === 'Thinking…' && doc.querySelector('[data-testid="thinking-text"]') !== null
      );
    },
    undefined,
    { polling: 'raf', timeout: 15_000 },
  );
  await send(page, 'Plan a short trip to Busan');
  await sawThinkingOpen;
  await finished(page);

  const toggle = lastAnswer(page).getByTestId('thinking-toggle');
  await expect(toggle).toHaveText(/^Thought for \d+ s$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(lastAnswer(page).getByTestId('thinking-text')).toHaveCount(0);
  await expect(lastAnswer(page)).toContainText('Demo model');

  // Keyboard: Enter opens the reasoning again.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(lastAnswer(page).getByTestId('thinking-text')).toContainText('Demo reasoning');
  await expectAccessibleOnPhone(page, { restore: true });

  // The history keeps the reasoning and its duration.
  await page.reload();
  await expect(lastAnswer(page).getByTestId('thinking-toggle')).toHaveText(/^Thought for \d+ s$/);
});

test('image: the answer shows the generated picture, which downloads as a PNG and stays in the history', async ({ page }) => {
  await openChat(page);
  const imageMode = page.getByTestId('image-mode-button');
  await imageMode.click();
  await expect(imageMode).toHaveAttribute('aria-pressed', 'true');
  await send(page, 'A lighthouse at dawn');

  const picture = lastAnswer(page).getByRole('img', { name: /^Generated image/ });
  await expect(picture).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1024);

  const downloading = page.waitForEvent('download');
  await lastAnswer(page).getByRole('button', { name: 'Download image' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.png$/);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  await expectNoSeriousA11yViolations(page);

  await page.reload();
  const stored = lastAnswer(page).getByRole('img', { name: 'Generated image A-lighthouse-at-dawn.png' });
  await expect(stored).toBeVisible();
  const again = page.waitForEvent('download');
  await lastAnswer(page).getByRole('button', { name: 'Download image' }).click();
  expect((await again).suggestedFilename()).toBe('A-lighthouse-at-dawn.png');
  // Modes last while the page does; a reload starts without them.
  await expect(page.getByTestId('image-mode-button')).toHaveAttribute('aria-pressed', 'false');
});

test('task mode: the chooser lists the tenant’s modes and the answer follows the chosen one', async ({ page }) => {
  await openChat(page);
  const chooser = page.getByTestId('task-mode-select');
  await chooser.click();
  await page.getByRole('option', { name: 'Translation' }).click();
  await expect(chooser).toHaveValue('Translation');
  await expectAccessibleOnPhone(page, { restore: true });

  await send(page, 'Good morning');
  await finished(page);
  await expect(lastAnswer(page)).toContainText('Task mode: Translation');
});

test('a task mode named in one language shows by that name in the other language’s interface', async ({ page }) => {
  const headers = await adminHeaders(page.request);
  const koreanOnly = uniqueName('교정');
  const englishOnly = uniqueName('Outline');
  const created: number[] = [];
  for (const data of [
    { ko_name: koreanOnly, instructions: 'Task mode: proofreading.' },
    { en_name: englishOnly, instructions: 'Task mode: outline.' },
  ]) {
    const response = await page.request.post('/api/v1/admin/task-modes/', { headers, data });
    expect(response.ok()).toBe(true);
    created.push(((await response.json()) as { id: number }).id);
  }
  try {
    await openChat(page);
    const options = async () => {
      await page.getByTestId('task-mode-select').click();
      const names = await page.getByRole('option').allTextContents();
      await page.keyboard.press('Escape');
      return names;
    };
    // English: the English names, and the Korean one of the mode that has no English name.
    expect(await options()).toEqual(expect.arrayContaining(['Summary', 'Translation', koreanOnly, englishOnly]));
    // Shown in Korean on this page only (the member's stored language stays English for the other specs).
    await showInLanguage(page, 'ko');
    await expect(page.getByTestId('thinking-mode-button')).toHaveText('생각하기');
    await expect(page.getByTestId('task-mode-select')).toHaveAttribute('placeholder', '작업 모드');
    // Korean: the Korean names, and the English one of the mode that has no Korean name.
    expect(await options()).toEqual(expect.arrayContaining(['요약', '번역', koreanOnly, englishOnly]));
    await page.getByTestId('task-mode-select').click();
    await page.getByRole('option', { name: englishOnly }).click();
    await expect(page.getByTestId('task-mode-select')).toHaveValue(englishOnly);
    await expectNoSeriousA11yViolations(page);
  } finally {
    for (const id of created) await page.request.delete(`/api/v1/admin/task-modes/${id}/`, { headers });
  }
});

test('the modes speak the member’s language (Korean), the demo model thinks in it too', async ({ page }) => {
  await openChat(page);
  const chooseLanguage = async (name: string) => {
    await page.getByTestId('language-menu').click();
    const saved = page.waitForResponse((response) => /\/members\/\d+\/$/.test(response.url()) && response.request().method() === 'PATCH');
    await page.getByRole('menuitem', { name }).click();
    expect((await saved).ok()).toBe(true);
  };
  await chooseLanguage('한국어');
  try {
    await expect(page.getByTestId('thinking-mode-button')).toHaveText('생각하기');
    await expect(page.getByTestId('image-mode-button')).toHaveText('이미지');
    await expect(page.getByTestId('task-mode-select')).toHaveAttribute('placeholder', '작업 모드');
    await expect(page.getByTestId('thinking-mode-button')).not.toHaveAttribute('aria-disabled');
    await page.getByTestId('thinking-mode-button').click();
    await send(page, '부산 여행 계획');
    await finished(page);
    const toggle = lastAnswer(page).getByTestId('thinking-toggle');
    await expect(toggle).toHaveText(/^\d+초 동안 생각함$/);
    await toggle.click();
    await expect(lastAnswer(page).getByTestId('thinking-text')).toContainText('데모 추론');
    await expectNoSeriousA11yViolations(page);
  } finally {
    // The specs share one server: the member goes back to English for the others.
    await chooseLanguage('English');
  }
});

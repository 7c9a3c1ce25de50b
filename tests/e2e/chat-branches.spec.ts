import { expect, test, type Page } from '@playwright/test';
import { MEMBER, adminHeaders, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';

/** The demo model's answer ends with this sentence; it quotes the question before it. */
const ANSWER_END = 'restart the server';
const SHOTS = 'test-results/h-branches';
const API = '/api/v1';

const answers = (page: Page) => page.getByTestId('chatbot-message');
const questions = (page: Page) => page.getByTestId('member-message');
const streamingAnswer = (page: Page) => page.locator('[data-testid="chatbot-message"][data-streaming]');

async function answered(page: Page) {
  await expect(streamingAnswer(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(answers(page).last()).toContainText(ANSWER_END);
}

async function ask(page: Page, text: string) {
  const box = page.getByTestId('composer-input');
  await box.fill(text);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);
  await answered(page);
}

async function checkWidths(page: Page, name: string) {
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('regenerate keeps both answers behind "1 / 2" arrows, usable from the keyboard, and the chosen one survives a reload', async ({ page }) => {
  await signIn(page, MEMBER);
  await ask(page, 'Which branch is this?');

  await answers(page).last().getByRole('button', { name: 'Regenerate answer' }).click();
  await answered(page);
  await expect(answers(page)).toHaveCount(1);
  await expect(questions(page)).toHaveCount(1);
  const versions = answers(page).getByRole('group', { name: 'Version 2 of 2' });
  await expect(versions).toContainText('2 / 2');
  await checkWidths(page, 'regenerated-en');

  await versions.getByRole('button', { name: 'Previous version' }).click();
  const first = answers(page).getByRole('group', { name: 'Version 1 of 2' });
  await expect(first).toBeVisible();
  // The previous arrow is at its end: the keyboard is left on the next one, and Enter goes back.
  await expect(first.getByRole('button', { name: 'Next version' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(answers(page).getByRole('group', { name: 'Version 2 of 2' })).toBeVisible();
  await answers(page).getByRole('button', { name: 'Previous version' }).click();
  await expect(first).toBeVisible();

  // Remembered by the server: a reload (or another device) shows the branch chosen last.
  await page.reload();
  await expect(answers(page).getByRole('group', { name: 'Version 1 of 2' })).toBeVisible();

  await showInLanguage(page, 'ko');
  await expect(answers(page).getByRole('group', { name: '2개 중 1번째 버전' })).toBeVisible();
  await checkWidths(page, 'regenerated-ko');
});

test('editing a sent message starts a new branch; the old question and its answer stay one arrow away', async ({ page }) => {
  await signIn(page, MEMBER);
  await ask(page, 'Tell me about oak trees');

  await questions(page).last().hover();
  await questions(page).last().getByRole('button', { name: 'Edit message' }).click();
  const editor = page.getByRole('textbox', { name: 'Edit your message' });
  await expect(editor).toHaveValue('Tell me about oak trees');
  await checkWidths(page, 'editing-en');
  await editor.fill('Tell me about pine trees');
  await editor.press('Enter');

  await answered(page);
  await expect(questions(page).last()).toContainText('Tell me about pine trees');
  await expect(answers(page).last()).toContainText('pine trees');
  const versions = questions(page).last().getByRole('group', { name: 'Version 2 of 2' });
  await expect(versions).toBeVisible();
  await checkWidths(page, 'edited-en');

  await versions.getByRole('button', { name: 'Previous version' }).click();
  await expect(questions(page).last()).toContainText('Tell me about oak trees');
  await expect(answers(page).last()).toContainText('oak trees');

  await showInLanguage(page, 'ko');
  await expect(questions(page).last().getByRole('group', { name: '2개 중 1번째 버전' })).toBeVisible();
  await checkWidths(page, 'edited-ko');
});

test('switching a version far up a long chat keeps the screen at that message, the new branch loaded back to it', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, MEMBER);
  const headers = await adminHeaders(page.request, MEMBER);
  const chatbots = (await (await page.request.get(`${API}/chatbots/?include_default=true`, { headers })).json()) as { items: { id: number }[] };
  const chatbotId = chatbots.items[0]!.id;
  // 25 imported turns (no model asked), then the first answer asked again: the old branch is 50
  // messages, its first answer two and a half pages above its newest one.
  const at = '2026-11-01T09:00:00Z';
  const said = (speaker: 'member' | 'chatbot', text: string) => ({
    speaker,
    speaker_name: speaker === 'member' ? 'Me' : 'Bot',
    created_at: at,
    text,
    attachments: [],
    citations: [],
    interrupted: null,
    imported_at: null,
  });
  const messages = Array.from({ length: 25 }, (_, i) => [said('member', `Long question ${i + 1}`), said('chatbot', `Long answer ${i + 1}`)]).flat();
  const imported = await page.request.post(`${API}/sessions/import/`, {
    headers,
    data: { version: 1, exported_at: at, title: uniqueName('Long chat'), chatbot: { id: chatbotId, name: 'Bot' }, messages },
  });
  expect(imported.status()).toBe(200);
  const hash = ((await imported.json()) as { hash_id: string }).hash_id;
  const history = (await (await page.request.get(`${API}/sessions/${hash}/history/?size=100`, { headers })).json()) as { items: { id: number }[] };
  const [firstQuestion, firstAnswer] = history.items;
  const again = await page.request.post(`${API}/chatbots/${chatbotId}/chat/`, {
    headers,
    data: { regenerate_message_id: firstQuestion!.id, session_hash_id: hash },
  });
  expect(again.status()).toBe(200);
  await again.body();
  const jumpToLatest = { en: 'Jump to the latest message', ko: '최신 메시지로 이동' };
  const versionOneOfTwo = { en: 'Version 1 of 2', ko: '2개 중 1번째 버전' };
  const buttons = { en: ['Previous version', 'Next version'], ko: ['이전 버전', '다음 버전'] };

  for (const language of ['en', 'ko'] as const) {
    // The regenerated answer's short branch is the one shown; its previous version leads to the long one.
    await page.request.put(`${API}/sessions/${hash}/branch/`, { headers, data: { message_id: firstAnswer!.id, position: 2 } });
    await page.goto(`/dashboard/chat/${chatbotId}/${hash}`);
    if (language === 'ko') await showInLanguage(page, 'ko');
    await expect(questions(page)).toHaveCount(1);
    await answers(page).getByRole('button', { name: buttons[language][0] }).click();

    const shown = answers(page).getByRole('group', { name: versionOneOfTwo[language] });
    await expect(shown).toBeInViewport();
    await expect(shown.getByRole('button', { name: buttons[language][1] })).toBeFocused();
    await expect(page.getByText('Long question 1', { exact: true })).toBeInViewport();
    // Not at the bottom of the long branch: its newest messages are below, one button away.
    await expect(page.getByRole('button', { name: jumpToLatest[language] })).toBeVisible();
    await checkWidths(page, `switched-far-up-${language}`);
  }

  // From the keyboard: to the short branch and back, the screen stays at the first answer.
  await answers(page).getByRole('group', { name: '2개 중 1번째 버전' }).getByRole('button', { name: '다음 버전' }).focus();
  await page.keyboard.press('Enter');
  await expect(answers(page).getByRole('group', { name: '2개 중 2번째 버전' }).getByRole('button', { name: '이전 버전' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(answers(page).getByRole('group', { name: '2개 중 1번째 버전' })).toBeInViewport();
  await expect(page.getByText('Long question 1', { exact: true })).toBeInViewport();
});

import { expect, test, type Page } from '@playwright/test';
import { skipAnnouncementPopup } from '../e2e/support';

/**
 * Screenshots of the chat screen mid-stream and finished, in English and Korean, for review.
 * Run with `npm run screenshots` (it slows the demo model so the mid-stream shot has a partial answer).
 */
test.use({ viewport: { width: 1180, height: 720 } });

const QUESTIONS = { en: 'How does the answer stream into this window?', ko: '답변은 어떻게 이 창에 스트리밍되나요?' };

async function signIn(page: Page) {
  await skipAnnouncementPopup(page);
  await page.goto('/auth');
  await page.getByLabel('Email').fill('member@demo.test');
  await page.getByRole('textbox', { name: 'Password' }).fill('DemoMember!234');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/chat\/\d+$/);
}

for (const language of ['en', 'ko'] as const) {
  test(`chat screen in ${language}`, async ({ page }) => {
    await signIn(page);
    if (language === 'ko') {
      await page.getByTestId('language-menu').click();
      await page.getByRole('menuitem', { name: '한국어' }).click();
      await expect(page.getByTestId('composer-input')).toHaveAttribute('placeholder', '메시지를 입력하세요');
    }

    await page.getByTestId('composer-input').fill(QUESTIONS[language]);
    await page.getByTestId('composer-input').press('Enter');
    const streaming = page.locator('[data-testid="chatbot-message"][data-streaming]');
    await expect.poll(async () => ((await streaming.textContent().catch(() => '')) ?? '').length, { intervals: [50] }).toBeGreaterThan(120);
    await page.screenshot({ path: `screenshots/chat-${language}-streaming.png` });

    await expect(streaming).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('session-title')).not.toHaveText(/Untitled|New chat|제목 없음|새 대화/);
    await page.screenshot({ path: `screenshots/chat-${language}-finished.png` });
  });
}

test('long-conversation banner and a refused send', async ({ page }) => {
  await signIn(page);
  await page.getByTestId('composer-input').fill('First question');
  await page.getByTestId('composer-input').press('Enter');
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);

  // Pretend the stored conversation nearly fills the context, and that credits ran out.
  await page.route('**/history/**', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), context_tokens: 120_000 } });
  });
  await page.route('**/chat/', (route) => route.fulfill({ status: 402, json: { code: 'credits_depleted', message: 'Credits depleted' } }));
  await page.reload();
  await expect(page.getByTestId('long-conversation')).toBeVisible();
  await page.getByTestId('composer-input').fill('Second question');
  await page.getByTestId('composer-input').press('Enter');
  await expect(page.getByTestId('chat-error')).toBeVisible();
  await expect(page.getByTestId('composer-input')).toHaveValue('Second question');
  await page.screenshot({ path: 'screenshots/chat-en-errors.png' });
});

import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, createChatbotThroughApi, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';
import { PHONE_VIEWPORT, expectAccessibleOnPhone } from './screens';

/** Feedback on answers (issue 23): rated in the chat, read in the console and in the Studio. */

const SHOTS = 'test-results/feedback';
const DESKTOP = { width: 1440, height: 900 };

/** One turn of the member's with the chatbot through the API, as the chat screen sends it: the session and the answer. */
async function answeredTurn(request: APIRequestContext, chatbotId: number, text: string) {
  const headers = await adminHeaders(request, MEMBER);
  const chat = await request.post(`/api/v1/chatbots/${chatbotId}/chat/`, { headers, data: { text } });
  expect(chat.status()).toBe(200);
  await chat.body(); // the whole stream, so the answer is stored
  const meta = JSON.parse(chat.headers()['x-chat-meta'] ?? '{}') as { session_hash_id: string; chatbot_message_id: number };
  return { headers, hash: meta.session_hash_id, answerId: meta.chatbot_message_id };
}

/** A chatbot of the member's with one rated-down answer in a shared chat and one rated up, made once for a describe's tests. */
async function ratedChatbot(playwright: typeof import('@playwright/test').request, testInfo: TestInfo, prefix: string) {
  const request = await playwright.newContext({ baseURL: testInfo.project.use.baseURL });
  const name = uniqueName(prefix);
  const chatbotId = await createChatbotThroughApi(request, MEMBER, { en_name: name });
  const comment = uniqueName('Names the wrong year');
  const shared = await ratedAnswers(request, chatbotId, comment);
  await request.dispose();
  return { name, chatbotId, comment, sharedHash: shared.hash };
}

/** Rates as the thumbs do; the first session is shared publicly, so the console may link it. */
async function ratedAnswers(request: APIRequestContext, chatbotId: number, comment: string) {
  const shared = await answeredTurn(request, chatbotId, 'Which year did the bridge open?');
  const rate = (turn: typeof shared, data: object) =>
    request.post(`/api/v1/sessions/${turn.hash}/messages/${turn.answerId}/feedback/`, { headers: turn.headers, data });
  expect((await rate(shared, { rating: 'down', reason: 'wrong', comment })).ok()).toBe(true);
  expect((await request.patch(`/api/v1/sessions/${shared.hash}/`, { headers: shared.headers, data: { is_public: true } })).ok()).toBe(true);
  const kept = await answeredTurn(request, chatbotId, 'Thanks, and the length?');
  expect((await rate(kept, { rating: 'up' })).ok()).toBe(true);
  return shared;
}

/** The chat's thread scrolls inside the window, so its shots are of the window; the other pages are taken whole. */
async function shoot(page: Page, name: string, { fullPage = true } = {}) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

test('a member rates an answer down with a reason, and the thumbs keep their state after a reload', async ({ page, request }) => {
  const chatbotId = await createChatbotThroughApi(request, MEMBER, { en_name: uniqueName('Bridge guide') });
  await signIn(page, MEMBER);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/dashboard/chat/${chatbotId}`);
  const box = page.getByTestId('composer-input');
  await box.fill('When did the bridge open?');
  await box.press('Enter');
  const answer = page.getByTestId('chatbot-message').last();
  // Once the answer is finished (and stored), its thumbs appear beside Copy.
  const down = answer.getByRole('button', { name: 'Bad answer' });
  await expect(down).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0);

  await down.click();
  const form = answer.getByRole('form', { name: 'What was wrong with this answer?' });
  await expect(form.getByRole('radio', { name: 'Incorrect' })).toBeFocused();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await form.getByRole('radio', { name: 'Unsafe or harmful' }).check();
  await form.getByRole('textbox', { name: 'Tell us more (optional)' }).fill('It names the wrong year.');
  await expectNoSeriousA11yViolations(page);
  await shoot(page, 'chat-reason-en-1440', { fullPage: false });
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form).toBeHidden();
  await expect(down).toBeFocused();

  await page.reload();
  const reloaded = page.getByTestId('chatbot-message').last();
  await expect(reloaded.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
  await expect(reloaded.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'false');
});

test('on a phone, in English and Korean, a rating is changed and the reason form fits', async ({ page, request }) => {
  const chatbotId = await createChatbotThroughApi(request, MEMBER, { en_name: uniqueName('Phone guide') });
  const turn = await answeredTurn(request, chatbotId, 'How long is the bridge?');
  expect(
    (await request.post(`/api/v1/sessions/${turn.hash}/messages/${turn.answerId}/feedback/`, { headers: turn.headers, data: { rating: 'down' } })).ok(),
  ).toBe(true);
  await signIn(page, MEMBER);
  await page.setViewportSize(PHONE_VIEWPORT);
  await page.goto(`/dashboard/chat/${chatbotId}/${turn.hash}`);
  const answer = page.getByTestId('chatbot-message').last();
  await expect(answer.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'true');
  await answer.getByRole('button', { name: 'Good answer' }).click();
  await expect(answer.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true');
  await expect(answer.getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'false');
  await expectNoSeriousA11yViolations(page);
  await shoot(page, 'chat-rated-en-375', { fullPage: false });

  await showInLanguage(page, 'ko');
  const korean = page.getByTestId('chatbot-message').last();
  await korean.getByRole('button', { name: '아쉬운 답변' }).click();
  await expect(korean.getByRole('form', { name: '이 답변의 어떤 점이 아쉬웠나요?' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shoot(page, 'chat-reason-ko-375', { fullPage: false });
  await page.setViewportSize(DESKTOP);
  await expectNoSeriousA11yViolations(page);
  await shoot(page, 'chat-reason-ko-1440', { fullPage: false });
});

test.describe('the console’s Feedback page', () => {
  let rated: Awaited<ReturnType<typeof ratedChatbot>>;
  test.beforeAll(async ({ playwright }, testInfo) => {
    rated = await ratedChatbot(playwright.request, testInfo, 'Console bot');
  });

  test('counts per chatbot and model, and links only the shared chat (English, 1440 and 375)', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Feedback', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Answer feedback' })).toBeVisible();
    await page.getByPlaceholder('All chatbots').click();
    await page.getByRole('option', { name: rated.name }).click();
    await expect(page).toHaveURL(new RegExp(`chatbot=${rated.chatbotId}`));
    await expect(page.getByTestId('feedback-totals')).toContainText('1 helpful · 1 not helpful');
    const rows = page.getByTestId('feedback-row');
    await expect(rows).toHaveCount(2);
    const down = rows.filter({ hasText: rated.comment });
    await expect(down).toContainText('Demo Member');
    await expect(down).toContainText('Incorrect');
    await expect(down.getByRole('link', { name: 'Open shared chat' })).toHaveAttribute('href', `/share/${rated.sharedHash}`);
    const up = rows.filter({ hasNotText: rated.comment });
    await expect(up.getByRole('link')).toHaveCount(0);
    await expect(up).toContainText('Not shared');
    await expect(page.getByRole('region', { name: 'By model' })).toBeVisible();
    // A preset period: kept by name in the URL; last month has none of today's ratings.
    const period = page.getByRole('combobox', { name: 'Period' });
    await period.click();
    await page.getByRole('option', { name: 'Last month' }).click();
    await expect(page).toHaveURL(/period=last_month/);
    await expect(page.getByText('No ratings match these filters.')).toBeVisible();
    await period.click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    await expect(page).toHaveURL(/period=last_7_days/);
    await expect(rows).toHaveCount(2);
    // Custom range starts from the preset's days; an end before the start is said under the field.
    await period.click();
    await page.getByRole('option', { name: 'Custom range' }).click();
    await expect(page).toHaveURL(/period=custom.*from=\d{4}-\d{2}-\d{2}/);
    await page.getByLabel('To').fill('2000-01-01');
    await expect(page.getByText('The start date must not be after the end date.')).toBeVisible();
    // Measured with the pointer on "Clear filters", in its hover colours.
    await page.getByRole('button', { name: 'Clear filters' }).hover();
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'console-en-1440');
    await expectAccessibleOnPhone(page);
    await shoot(page, 'console-en-375');
  });

  test('in Korean, at 375 and 1440', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto(`/admin/feedback?chatbot=${rated.chatbotId}&period=this_month`);
    await showInLanguage(page, 'ko');
    await expect(page.getByRole('heading', { level: 1, name: '답변 피드백' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: '기간' })).toHaveValue('이번 달');
    await expect(page.getByTestId('feedback-row')).toHaveCount(2);
    await expect(page.getByTestId('feedback-totals')).toContainText('도움됨 1 · 도움 안 됨 1');
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'console-ko-375');
    await page.setViewportSize(DESKTOP);
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'console-ko-1440');
  });
});

test.describe('the Studio’s Feedback section', () => {
  let rated: Awaited<ReturnType<typeof ratedChatbot>>;
  test.beforeAll(async ({ playwright }, testInfo) => {
    rated = await ratedChatbot(playwright.request, testInfo, 'Studio bot');
  });

  test('shows the author the ratings without who gave them (English, 1440 and 375)', async ({ page }) => {
    await signIn(page, MEMBER);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/dashboard/studio/${rated.chatbotId}`);
    const section = page.getByTestId('studio-feedback');
    await expect(section).toContainText('1 helpful · 1 not helpful');
    await expect(section.getByTestId('studio-feedback-item')).toHaveCount(2);
    await expect(section).toContainText(rated.comment);
    await expect(section).not.toContainText('Demo Member');
    await section.scrollIntoViewIfNeeded();
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'studio-en-1440');
    await expectAccessibleOnPhone(page);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'studio-en-375', { fullPage: false });
  });

  test('in Korean, at 375 and 1440', async ({ page }) => {
    await signIn(page, MEMBER);
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto(`/dashboard/studio/${rated.chatbotId}`);
    await showInLanguage(page, 'ko');
    const section = page.getByTestId('studio-feedback');
    await expect(section).toContainText('도움됨 1 · 도움 안 됨 1');
    await section.scrollIntoViewIfNeeded();
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'studio-ko-375', { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'studio-ko-1440');
  });
});

import { expect, test } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, showInLanguage, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

const API = '/api/v1';

/** Turns after the one that matches: more than a page of history (20 messages) lies between it and the newest. */
const LATER_TURNS = 11;
const SHOTS = 'test-results/branchnav';

test.describe('Search across my chats', () => {
  test('a member finds a chat by a word of an old message with Ctrl+K and opens it at that message', async ({ page }) => {
    test.setTimeout(60_000);
    await signIn(page, ADMIN);
    const word = `오로라${Date.now().toString(36)}`;
    const signedIn = await page.request.post(`${API}/auth/sign-in/`, { data: ADMIN });
    const headers = { 'x-access-token': ((await signedIn.json()) as { access_token: string }).access_token };
    const chatbots = (await (await page.request.get(`${API}/chatbots/?include_default=true`, { headers })).json()) as { items: { id: number }[] };
    const chatbotId = chatbots.items[0]!.id;
    const send = async (text: string, sessionHash?: string) => {
      const chat = await page.request.post(`${API}/chatbots/${chatbotId}/chat/`, { headers, data: { text, session_hash_id: sessionHash } });
      expect(chat.status()).toBe(200);
      await chat.body();
      return (JSON.parse(chat.headers()['x-chat-meta'] ?? '{}') as { session_hash_id: string }).session_hash_id;
    };
    const hash = await send(`다음 여행은 ${word} 보러 가요`);
    for (let turn = 1; turn <= LATER_TURNS; turn++) await send(`later question ${turn}`, hash);

    await page.reload();
    const box = page.getByRole('searchbox', { name: 'Search chats' });
    await expect(box).toBeVisible();
    // The opened chat puts focus in its message box once it has loaded; Ctrl+K moves it from there.
    await expect(page.getByTestId('composer-input')).toBeFocused();
    await expect(box).not.toBeFocused();
    await page.keyboard.press('ControlOrMeta+K');
    await expect(box).toBeFocused();
    await box.fill(word);
    const results = page.getByRole('list', { name: 'Search results' });
    const result = results.getByRole('link').first();
    await expect(result.locator('mark').first()).toHaveText(word);
    await expect(page.getByRole('status').filter({ hasText: /chats? found/ })).toBeAttached();
    await expectNoSeriousA11yViolations(page);

    await result.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/chat/${chatbotId}/${hash}\\?message=\\d+`));
    const found = page.locator('[data-message-id]:focus');
    await expect(found).toContainText(word);
    await expect(found).toBeInViewport();
    await expectNoSeriousA11yViolations(page);

    // The member edits the question away: the word is now on an inactive branch only.
    const question = page.getByTestId('member-message').filter({ hasText: word });
    await question.hover();
    await question.getByRole('button', { name: 'Edit message' }).click();
    const editor = page.getByRole('textbox', { name: 'Edit your message' });
    await editor.fill('다음 여행은 바다 보러 가요');
    await editor.press('Enter');
    await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('member-message')).toHaveCount(1);
    await expect(page.getByTestId('message-list').getByText(word)).toHaveCount(0);

    // Its search result opens the old branch at the message, the question's arrows saying 1 / 2.
    await box.fill(word);
    await results.getByRole('link').first().click();
    await expect(found).toContainText(word);
    await expect(found).toBeInViewport();
    const oldQuestion = page.getByTestId('member-message').filter({ hasText: word });
    await expect(oldQuestion.getByRole('group', { name: 'Version 1 of 2' })).toContainText('1 / 2');
    for (const language of ['en', 'ko'] as const) {
      if (language === 'ko') await showInLanguage(page, 'ko');
      await expect(found).toBeInViewport();
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoSeriousA11yViolations(page);
        await page.screenshot({ path: `${SHOTS}/search-hit-old-branch-${language}-${width}.png` });
      }
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    await expect(oldQuestion.getByRole('group', { name: '2개 중 1번째 버전' })).toBeVisible();
    // Remembered as the active branch: the chat itself now opens on it.
    await page.goto(`/dashboard/chat/${chatbotId}/${hash}`);
    await expect(page.getByTestId('member-message').last()).toContainText(`later question ${LATER_TURNS}`);
    await showInLanguage(page, 'en');

    // Escape empties the box and My chats lists every chat again.
    await box.focus();
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('');
    await expect(page.getByTestId('session-list')).toBeVisible();
  });

  test('Ctrl+K unfolds a folded My chats and focuses the box', async ({ page }) => {
    await signIn(page, ADMIN);
    const toggle = page.getByTestId('my-sessions-toggle');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('ControlOrMeta+K');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('searchbox', { name: 'Search chats' })).toBeFocused();
  });

  test('on a phone the search lives in the navigation drawer, Ctrl+K opens it at the box, and it says when nothing matches', async ({ page }) => {
    await signIn(page, ADMIN);
    await expectAccessibleOnPhone(page);
    const menu = page.getByTestId('nav-menu-button');
    const box = page.getByRole('searchbox', { name: 'Search chats' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    // A phone with a keyboard: the closed drawer opens with the focus in the box.
    await page.keyboard.press('ControlOrMeta+K');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(box).toBeFocused();
    await box.fill('zz-nothing-has-this');
    await expect(page.getByTestId('session-search-empty')).toHaveText('No chats contain “zz-nothing-has-this”.');
    await expectNoSeriousA11yViolations(page);
    // Escape clears the box, then closes the drawer.
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
  });
});

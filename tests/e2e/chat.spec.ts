import { expect, test, type Page } from '@playwright/test';
import { skipAnnouncementPopup } from './support';
import { expectAccessibleOnPhone } from './screens';

const MEMBER = { email: 'member@demo.test', password: 'DemoMember!234' };
/** The demo model's answer ends with this sentence; a partial answer does not reach it. */
const ANSWER_END = 'restart the server';
/** A long question makes the demo answer (which quotes it) longer, so there is time to act mid-stream. */
const LONG_QUESTION =
  'Please explain, step by step and in plain words, how a streamed answer travels from the model through the server to this chat window and why it is batched';

async function signIn(page: Page) {
  await skipAnnouncementPopup(page);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // /dashboard/chat opens the first default chatbot.
  await page.waitForURL(/\/dashboard\/chat\/\d+$/);
}

async function send(page: Page, text: string) {
  const box = page.getByTestId('composer-input');
  await box.fill(text);
  await box.press('Enter');
}

const answers = (page: Page) => page.getByTestId('chatbot-message');
const streamingAnswer = (page: Page) => page.locator('[data-testid="chatbot-message"][data-streaming]');

test('a message streams its answer in, creates the session and lists it under My sessions', async ({ page }) => {
  await signIn(page);
  await send(page, 'Hello from the end-to-end test');

  await expect(page.getByTestId('member-message').last()).toHaveText('Hello from the end-to-end test');
  // The answer grows over time while it streams.
  const lengths: number[] = [];
  await expect
    .poll(
      async () => {
        const text =
          (await streamingAnswer(page)
            .textContent()
            .catch(() => null)) ?? '';
        if (lengths.at(-1) !== text.length) lengths.push(text.length);
        return new Set(lengths.filter((length) => length > 0)).size;
      },
      { intervals: [40], timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(3);
  expect(lengths.filter((length) => length > 0)).toEqual([...lengths.filter((length) => length > 0)].sort((a, b) => a - b));

  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);
  await expect(streamingAnswer(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(answers(page).last()).toContainText(ANSWER_END);
  await expect(answers(page).last().getByTestId('interrupted-badge')).toHaveCount(0);

  const hash = new URL(page.url()).pathname.split('/').at(-1)!;
  // The chatbot's model titles the chat after its first answer (the demo model with the message's
  // words): the header and My chats, under Today, show it without a reload.
  await expect(page.getByTestId('session-title')).toHaveText('End-to-end test');
  const today = page.getByTestId('session-list').getByRole('group', { name: 'Today' });
  await expect(today.locator(`a[href$="/${hash}"]`)).toHaveText('End-to-end test');
  await expectAccessibleOnPhone(page);
});

test('a new send while an answer streams cancels it and answers the new message', async ({ page }) => {
  await signIn(page);
  await send(page, LONG_QUESTION);
  // Typed while the answer streams and sent with one key once it shows, so the answer (about a
  // second long) is still streaming when the new message goes, even on a busy machine.
  const box = page.getByTestId('composer-input');
  await box.fill('Second question');
  await expect(streamingAnswer(page)).toContainText('Demo model');
  await box.press('Enter');

  await expect(page.getByTestId('member-message')).toHaveText([LONG_QUESTION, 'Second question']);
  await expect(answers(page)).toHaveCount(2);
  // Stopped: it was still streaming when the new message went (on a loaded machine its last words
  // may have arrived before the end did, so its text is not checked to be cut short here;
  // chat-stop.spec.ts checks that).
  await expect(answers(page).first().getByTestId('interrupted-badge')).toHaveText('Stopped');
  await expect(streamingAnswer(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(answers(page).last()).toContainText('Second question');
  await expect(answers(page).last()).toContainText(ANSWER_END);

  // Both turns were stored in the same session.
  await page.reload();
  await expect(page.getByTestId('member-message')).toHaveText([LONG_QUESTION, 'Second question']);
  await expect(answers(page).first().getByTestId('interrupted-badge')).toHaveText('Stopped');
});

test('older history loads 20 at a time when scrolling up, keeping the reading position', async ({ page, request }) => {
  // 11 turns (22 messages) through the API: one page of 20 plus 2 older messages.
  const signedIn = await (await request.post('/api/v1/auth/sign-in/', { data: MEMBER })).json();
  const headers = { 'x-access-token': signedIn.access_token as string };
  const chatbots = await (await request.get('/api/v1/chatbots/?include_default=true&size=30', { headers })).json();
  const chatbotId = chatbots.items[0].id as number;
  let hash: string | undefined;
  for (let turn = 1; turn <= 11; turn++) {
    const response = await request.post(`/api/v1/chatbots/${chatbotId}/chat/`, { headers, data: { text: `Question ${turn}`, session_hash_id: hash } });
    expect(response.ok()).toBe(true);
    hash ??= JSON.parse(response.headers()['x-chat-meta']!).session_hash_id as string;
    await response.body();
  }

  await signIn(page);
  await page.goto(`/dashboard/chat/${chatbotId}/${hash}`);
  const list = page.getByTestId('message-list');
  // The list is virtualised: only the rows near the screen are in the DOM, so look rows up by text.
  const question = (turn: number) => page.getByTestId('member-message').filter({ hasText: new RegExp(`^Question ${turn}$`) });
  // The newest page (Question 2 to 11) is shown scrolled to the bottom.
  await expect(question(11)).toBeInViewport();
  await expect(answers(page).last()).toBeInViewport();
  await expect(question(1)).toHaveCount(0);

  const olderPage = page.waitForRequest((request) => request.url().includes('first_id='));
  await list.evaluate((element) => element.scrollBy(0, -element.scrollHeight));
  await olderPage;
  await expect(question(1)).toHaveCount(1);
  // The message that was at the top stays where the reader left it instead of jumping away.
  await expect(question(2)).toBeInViewport();
  await expect(question(1)).not.toBeInViewport();
  await list.evaluate((element) => element.scrollBy(0, -element.scrollHeight));
  await expect(question(1)).toBeInViewport();

  // Away from the bottom, a button brings the newest answer back.
  await expect(question(11)).not.toBeInViewport();
  await page.getByRole('button', { name: 'Jump to the latest message' }).click();
  await expect(question(11)).toBeInViewport();
  await expect(answers(page).last()).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Jump to the latest message' })).toHaveCount(0);

  // An answer written below the long chat keeps a reader at the bottom at its end while it grows,
  // also when a message above changes height meanwhile (a picture or a code grammar arriving; here
  // the last answer loses 400 px of it).
  const lastRow = page.locator('[data-message-id]').last();
  await lastRow.evaluate((row) => row.insertAdjacentHTML('beforeend', '<div data-testid="e2e-filler" style="height: 400px"></div>'));
  await send(page, LONG_QUESTION);
  const gapBelow = () => list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
  await expect(streamingAnswer(page)).toBeInViewport();
  await page.getByTestId('e2e-filler').evaluate((filler) => filler.remove());
  await expect(streamingAnswer(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(answers(page).last()).toContainText(ANSWER_END);
  await expect.poll(gapBelow).toBeLessThan(2);
  await expect(page.getByRole('button', { name: 'Jump to the latest message' })).toHaveCount(0);
});

import { expect, type Page } from '@playwright/test';
import { MEMBER, signIn } from './support';
import { chunked, test } from './fakeLlmServer';

/**
 * Stop, on an answer the fake LLM holds mid-stream (tests/e2e/fakeLlmServer.ts): the end of the
 * answer is never sent, so the test stops it before its end however busy the machine is.
 */

const SHOWN = 'The first half of the answer arrives, ';
const NEVER_SENT = 'and this second half never does.';

const answers = (page: Page) => page.getByTestId('chatbot-message');
const streamingAnswer = (page: Page) => page.locator('[data-testid="chatbot-message"][data-streaming]');

test('Stop keeps the partial answer, also after a reload, and the server hangs up on the model', async ({ page, llm }) => {
  llm.fake.queueBehaviours([{ chunks: [...chunked(SHOWN), ...chunked(NEVER_SENT)], delayMs: 0, holdAfterChunks: chunked(SHOWN).length }]);
  const asked = llm.fake.requests.length + 1;
  await signIn(page, MEMBER);
  const box = page.getByTestId('composer-input');
  await box.fill('Tell me something long');
  await box.press('Enter');
  await expect(streamingAnswer(page)).toContainText(SHOWN.trim());
  await page.getByTestId('stop-button').click();

  const answer = answers(page).last();
  await expect(answer.getByTestId('interrupted-badge')).toHaveText('Stopped');
  await expect(answer).toContainText(SHOWN.trim());
  await expect(answer).not.toContainText('second half');
  // The model's call ended with Stop: nothing more is generated or paid for.
  const call = await llm.fake.waitForRequest(asked);
  await call.settled;
  expect(call.aborted).toBe(true);
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);

  await page.reload();
  const stored = answers(page).last();
  await expect(stored.getByTestId('interrupted-badge')).toHaveText('Stopped');
  await expect(stored).toContainText(SHOWN.trim());
  await expect(stored).not.toContainText('second half');
  await expect(page.getByTestId('member-message').last()).toHaveText('Tell me something long');
});

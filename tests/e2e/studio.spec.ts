import { expect, test, type Page } from '@playwright/test';
import { samplePng } from '../fixtures/sampleFiles';
import { blankBelowContent, expectInsideWindow, horizontalOverflow } from './screens';
import { MEMBER, createChatbotInStudio, createChatbotThroughApi, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';

/** Picks files through the button's file chooser, as a user would. */
async function chooseFiles(page: Page, button: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId(button).click();
  await (await chooser).setFiles(files);
}

const status = (page: Page) => page.getByTestId('chatbot-status').first();

async function createNamed(page: Page, name = uniqueName('Helper')): Promise<void> {
  await page.goto('/dashboard/studio');
  await expect(page.getByRole('heading', { level: 1, name: 'Studio' })).toBeVisible();
  await createChatbotInStudio(page, name);
  await expect(page.getByTestId('test-chat')).toBeVisible();
}

/** The member's own chatbots, drafts included, as the Studio lists them. */
async function ownChatbotCount(page: Page): Promise<number> {
  const signedIn = (await (await page.request.post('/api/v1/auth/sign-in/', { data: MEMBER, headers: { 'x-client-kind': 'desktop' } })).json()) as {
    access_token: string;
    member: { id: number };
  };
  const list = await page.request.get(`/api/v1/chatbots/?creator_id=${signedIn.member.id}&size=1`, { headers: { 'x-access-token': signedIn.access_token } });
  return ((await list.json()) as { total_items: number }).total_items;
}

test('Create asks for a name first: backing out saves nothing, the name given is the chatbot’s', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/dashboard/studio');
  const before = await ownChatbotCount(page);
  const dialog = page.getByRole('dialog', { name: 'New chatbot' });

  await page.getByTestId('create-chatbot').first().click();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('This is a required field.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/console2/studio-create-en-1440.png' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('create-chatbot').first().click();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await ownChatbotCount(page)).toBe(before);

  const name = uniqueName('Recipe finder');
  await page.getByTestId('create-chatbot').first().click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard\/studio\/\d+$/);
  await expect(page.getByTestId('en-name')).toHaveValue(name);
  await expect(status(page)).toHaveText('Private');
  expect(await ownChatbotCount(page)).toBe(before + 1);

  // A Korean member names it in Korean, on a phone.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/dashboard/studio');
  await expect(page.getByTestId('studio-search')).toBeVisible();
  await showInLanguage(page, 'ko');
  await page.getByTestId('create-chatbot').first().click();
  const koDialog = page.getByRole('dialog', { name: '새 챗봇' });
  await koDialog.getByRole('textbox', { name: '이름' }).fill('레시피 도우미');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/console2/studio-create-ko-375.png' });
  await koDialog.getByRole('button', { name: '만들기' }).click();
  await page.waitForURL(/\/dashboard\/studio\/\d+$/);
  await expect(page.getByTestId('ko-name')).toHaveValue('레시피 도우미');
});

/** The editor of a chatbot of the member's, made through the API with its profile filled in. */
async function openOwnChatbot(page: Page, name: string): Promise<void> {
  const id = await createChatbotThroughApi(page.request, MEMBER, {
    en_name: name,
    ko_name: '도서관 안내',
    en_key_features: 'Answers questions about the Falcon library.',
    system_instructions: 'Answer from the documents and cite them.',
  });
  await signIn(page, MEMBER, { to: `/dashboard/studio/${id}` });
  await expect(page.getByTestId('en-name')).toHaveValue(name);
}

test('a member names, describes and tunes a new chatbot, saves it, and gives it a picture', async ({ page }) => {
  const name = uniqueName('Library guide');
  await signIn(page, MEMBER);
  await createNamed(page, name);
  await expect(status(page)).toHaveText('Private');

  // Profile: names, key features; behaviour: instructions and ranges.
  await page.getByTestId('en-name').fill(name);
  await page.getByTestId('ko-name').fill('도서관 안내');
  await page.getByTestId('en-key-features').fill('Answers questions about the Falcon library.');
  await page.getByTestId('instructions').fill('Answer from the documents and cite them.');
  await page.getByTestId('temperature').fill('0.4');
  await page.getByTestId('top-p').fill('0.9');
  // The draft came with a model the member may use; its details are shown.
  await expect(page.getByTestId('model-picker-details')).toContainText('tokens context');
  await expect(page.getByTestId('test-chat-note')).toContainText('unsaved changes');
  await page.getByTestId('save-chatbot').click();
  await expect(page.getByText('Chatbot saved.')).toBeVisible();
  await expect(page.getByTestId('save-chatbot')).toBeDisabled();
  await expect(status(page)).toHaveText('Private');

  // The picture, cropped square in the browser.
  await chooseFiles(page, 'profile-image-button', [{ name: 'face.png', mimeType: 'image/png', buffer: samplePng() }]);
  await expect(page.getByText('Picture saved.')).toBeVisible();
  await expect(page.getByTestId('profile-image').locator('img')).toBeVisible();
});

test('a document uploaded to a chatbot is read in the background, and the test chat answers from it with a citation', async ({ page }) => {
  await openOwnChatbot(page, uniqueName('Library guide'));
  await chooseFiles(page, 'upload-documents', [
    {
      name: 'opening-hours.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('The Falcon library opens at nine in the morning and closes at five in the evening.'),
    },
  ]);
  const document = page.getByTestId('chatbot-document').filter({ hasText: 'opening-hours.txt' });
  await expect(document).toBeVisible();
  await expect(document).toContainText('Ready', { timeout: 30_000 });
  await expectNoSeriousA11yViolations(page);

  // The test chat answers from the document, with the passage as a citation.
  const chat = page.getByTestId('test-chat');
  await chat.getByTestId('composer-input').fill('When does the Falcon library open?');
  await chat.getByTestId('composer-input').press('Enter');
  await expect(chat.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
  await expect(chat.getByTestId('chatbot-message').last()).toBeVisible();
  await expect(chat.getByTestId('citations')).toContainText('opening-hours.txt');
  await page.screenshot({ path: 'test-results/studio-editor.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
});

test('a member shares a chatbot with a group, then asks to publish it, and the list shows it pending review', async ({ page }) => {
  const name = uniqueName('Library guide');
  await openOwnChatbot(page, name);
  await expect(status(page)).toHaveText('Private');

  // Share with a member group: visible to its members at once (tests/e2e/chatbot-sharing.spec.ts).
  await page.getByTestId('open-access').click();
  let dialog = page.getByRole('dialog', { name: 'Who can use this chatbot' });
  await dialog.getByText('Member groups', { exact: true }).click();
  await dialog.getByTestId('access-group-select').click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape'); // closes the options, not the dialog
  await expectNoSeriousA11yViolations(page);
  await dialog.getByTestId('access-save').click();
  await expect(page.getByText('Access saved.')).toBeVisible();
  await expect(status(page)).toHaveText('Shared with groups');

  // Ask to publish: pending until an admin decides.
  await page.getByTestId('open-access').click();
  dialog = page.getByRole('dialog', { name: 'Who can use this chatbot' });
  await dialog.getByText('Everyone in the workspace', { exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Ask to publish' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Ask to publish' }).click();
  await expect(page.getByText('Publishing requested. An administrator will review it.')).toBeVisible();
  await expect(status(page)).toHaveText('Pending review');

  // The list shows it with its status; the search is in the URL.
  await page.getByRole('link', { name: 'Back to my chatbots' }).click();
  await page.getByRole('searchbox', { name: 'Search my chatbots' }).fill(name);
  await expect(page).toHaveURL(/search=/);
  const card = page.getByTestId('studio-chatbot').filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('chatbot-status')).toHaveText('Pending review');
  await page.screenshot({ path: 'test-results/studio-list.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
});

test('unsaved changes are guarded, and a chatbot is deleted after confirmation', async ({ page }) => {
  await signIn(page, MEMBER);
  // Keyboard only: from the search box, Tab reaches Create, Enter asks for the name, Enter makes the chatbot.
  await page.goto('/dashboard/studio');
  await page.getByRole('searchbox', { name: 'Search my chatbots' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('create-chatbot').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('new-chatbot-name')).toBeFocused();
  await page.keyboard.type(uniqueName('Throwaway'));
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard\/studio\/\d+$/);
  await expect(page.getByTestId('test-chat')).toBeVisible();
  const editorUrl = page.url();
  await page.getByTestId('en-name').fill(uniqueName('Throwaway'));
  await page.getByRole('link', { name: 'Back to my chatbots' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Cancel ("Stay") has focus: Enter keeps the edits.
  await page.keyboard.press('Enter');
  await expect(leave).toBeHidden();
  expect(page.url()).toBe(editorUrl);

  // A document is removed after its own confirmation.
  await chooseFiles(page, 'upload-documents', [{ name: 'old-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes that are no longer true.') }]);
  const document = page.getByTestId('chatbot-document').filter({ hasText: 'old-notes.txt' });
  await expect(document).toContainText('Ready', { timeout: 30_000 });
  await document.getByRole('button', { name: 'Delete old-notes.txt' }).click();
  await page.getByRole('dialog', { name: 'Delete this document?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Document deleted.')).toBeVisible();
  await expect(document).toHaveCount(0);

  await page.getByTestId('delete-chatbot').click();
  const confirm = page.getByRole('dialog', { name: /^Delete / });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Chatbot deleted.')).toBeVisible();
  await page.waitForURL(/\/dashboard\/studio$/);
  await page.goto(editorUrl);
  await expect(page.getByText('This chatbot does not exist or you cannot edit it.')).toBeVisible();
});

test('on a phone the test chat sits below the editor and nothing scrolls sideways', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.setViewportSize({ width: 375, height: 812 });
  await createNamed(page);
  const form = await page.getByTestId('instructions').boundingBox();
  const chat = await page.getByTestId('test-chat').boundingBox();
  expect(chat!.y).toBeGreaterThan(form!.y);
  expect(await horizontalOverflow(page)).toEqual([]);
  await expectInsideWindow(page, page.getByTestId('save-chatbot'));
  await expectNoSeriousA11yViolations(page);
  // Scrolled to the end, the test chat is the last thing on the page: no blank screen below it
  // (only the page's bottom margin).
  const blank = await blankBelowContent(page, page.getByTestId('test-chat'));
  expect(blank).toBeGreaterThanOrEqual(0);
  expect(blank).toBeLessThan(64);
});

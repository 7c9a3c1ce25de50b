import { expect, test, type Page } from '@playwright/test';
import { samplePdf } from '../fixtures/sampleFiles';
import { MEMBER, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

/** The smallest real PNG: 1×1, red. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');

interface DroppedFile {
  name: string;
  type: string;
  bytes: number[];
}

/** A DataTransfer holding the files, built in the page, as a drag from the desktop carries it. */
function filesTransfer(page: Page, files: DroppedFile[]) {
  return page.evaluateHandle((list) => {
    // The browser's DataTransfer (not in the Node typings this spec compiles with).
    const browser = globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } };
    const transfer = new browser.DataTransfer();
    for (const file of list) transfer.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
    return transfer;
  }, files);
}

const textFile = (name: string, type: string, text: string): DroppedFile => ({ name, type, bytes: [...Buffer.from(text)] });

async function openChat(page: Page) {
  await signIn(page, MEMBER);
  await page.waitForURL(/\/dashboard\/chat\/\d+$/);
  // The chat takes files once its chatbot has loaded (the message box is enabled then).
  await expect(page.getByTestId('composer-input')).toBeEnabled();
}

async function sendAndWait(page: Page, text: string) {
  const box = page.getByTestId('composer-input');
  await box.fill(text);
  await expect(page.getByTestId('send-button')).toBeEnabled({ timeout: 20_000 });
  await page.getByTestId('send-button').click();
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
}

const chip = (page: Page, name: string) => page.getByTestId('attachment-chip').filter({ hasText: name });

test('a file attached with the button is read, sent, shown on the message, reaches the model and is cited', async ({ page }) => {
  await openChat(page);
  await page
    .getByTestId('attach-input')
    .setInputFiles({ name: 'launch-plan.txt', mimeType: 'text/plain', buffer: Buffer.from('Launch date is 3 March. Budget approved.') });
  await expect(chip(page, 'launch-plan.txt')).toBeVisible();
  // Parsed in the background: the chip says Ready, and only then can the message go.
  await expect(chip(page, 'launch-plan.txt')).toContainText('Ready', { timeout: 20_000 });
  await expectNoSeriousA11yViolations(page);

  await sendAndWait(page, 'What is the launch date in my file?');
  // The demo model names each attached file and its first words: it was given the content.
  await expect(page.getByTestId('chatbot-message').last()).toContainText('Attached files: launch-plan.txt (“Launch date is 3 March. Budget approved.”)');
  // The passage that answers was retrieved from the file and is cited under the answer.
  const citation = page.getByTestId('citation-document').filter({ hasText: 'launch-plan.txt' });
  await citation.getByRole('button', { name: 'Show passage' }).click();
  await expect(citation).toContainText('Launch date is 3 March');
  await expect(page.getByTestId('attachment-chips')).toHaveCount(0);
  const files = page.getByTestId('message-files').last();
  await expect(files.getByRole('button', { name: 'Open launch-plan.txt' })).toBeVisible();

  const download = page.waitForEvent('download');
  await files.getByRole('button', { name: 'Open launch-plan.txt' }).click();
  expect((await download).suggestedFilename()).toBe('launch-plan.txt');
  await expectAccessibleOnPhone(page);
});

test('Stop on an answer to a message with files keeps the partial answer and its Stopped badge on screen', async ({ page }) => {
  await openChat(page);
  await page.getByTestId('attach-input').setInputFiles([
    { name: 'agenda.txt', mimeType: 'text/plain', buffer: Buffer.from('Agenda: budget review, hiring plan, launch date.') },
    { name: 'minutes.pdf', mimeType: 'application/pdf', buffer: samplePdf(['Minutes of the planning meeting']) },
  ]);
  await expect(chip(page, 'agenda.txt')).toContainText('Ready', { timeout: 20_000 });
  await expect(chip(page, 'minutes.pdf')).toContainText('Ready', { timeout: 20_000 });
  await page.getByTestId('composer-input').fill('Please summarise both files for me, step by step and in plain words, with every detail you can find in them');
  await page.getByTestId('send-button').click();
  const streaming = page.locator('[data-testid="chatbot-message"][data-streaming]');
  await expect(streaming).toContainText('Demo model');
  await page.getByTestId('stop-button').click();

  // Without a reload: the answer as far as it got, marked Stopped, and the files on the message.
  const answer = page.getByTestId('chatbot-message').last();
  await expect(answer.getByTestId('interrupted-badge')).toHaveText('Stopped');
  await expect(answer).toContainText('Demo model');
  await expect(page.getByTestId('message-files').last().getByRole('button', { name: 'Open agenda.txt' })).toBeVisible();
  await expect(page.getByTestId('message-files').last().getByRole('button', { name: 'Open minutes.pdf' })).toBeVisible();
  await expectAccessibleOnPhone(page, { restore: true });
  const partial = (await answer.locator('p').first().textContent()) ?? '';
  expect(partial.length).toBeGreaterThan(0);

  await page.reload();
  const stored = page.getByTestId('chatbot-message').last();
  await expect(stored.getByTestId('interrupted-badge')).toHaveText('Stopped');
  await expect(stored).toContainText(partial);
});

test('a large upload shows how far it got, then the file is read', async ({ page }) => {
  await openChat(page);
  // A slow line (256 KB/s up), so that the upload takes a few seconds.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  const text = 'The quarterly report covers revenue, costs and hiring. '.repeat(20_000);
  await page.getByTestId('attach-input').setInputFiles({ name: 'quarterly.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await expect(chip(page, 'quarterly.txt')).toContainText(/Uploading [1-9]\d?%/, { timeout: 15_000 });
  await expectNoSeriousA11yViolations(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  // Read whole, or in part when the text is beyond the parse limit.
  await expect(chip(page, 'quarterly.txt')).toContainText(/Ready|% read/, { timeout: 30_000 });
});

test('files dropped onto the chat are attached; an image alone can be sent and shows as a thumbnail', async ({ page }) => {
  await openChat(page);
  const dataTransfer = await filesTransfer(page, [
    textFile('notes.md', 'text/markdown', '# Notes\n\nQuarterly goals: hire two engineers.'),
    { name: 'red-dot.png', type: 'image/png', bytes: [...PNG] },
  ]);
  const zone = page.getByTestId('chat-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await expect(page.getByText('Drop files to attach them')).toBeVisible();
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(page.getByText('Drop files to attach them')).toHaveCount(0);
  await expect(chip(page, 'notes.md')).toContainText('Ready', { timeout: 20_000 });
  await expect(chip(page, 'red-dot.png')).toContainText('Ready');

  // Removing a chip takes the file out of the message.
  await page.getByRole('button', { name: 'Remove notes.md' }).click();
  await expect(chip(page, 'notes.md')).toHaveCount(0);
  await expect(page.getByTestId('send-button')).toBeEnabled();
  await page.getByTestId('send-button').click();
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('chatbot-message').last()).toContainText('Attached files: red-dot.png');
  await expect(page.getByTestId('message-files').last().getByRole('img', { name: 'red-dot.png' })).toBeVisible({ timeout: 20_000 });

  // A dropped document with no text cannot be sent alone (a message needs text or an image).
  await zone.dispatchEvent('drop', { dataTransfer: await filesTransfer(page, [textFile('alone.txt', 'text/plain', 'just text')]) });
  await expect(chip(page, 'alone.txt')).toContainText('Ready', { timeout: 20_000 });
  await expect(page.getByTestId('send-button')).toBeDisabled();
  await expectAccessibleOnPhone(page);
});

test('an image pasted into the message box is attached', async ({ page }) => {
  await openChat(page);
  const clipboard = await filesTransfer(page, [{ name: 'screenshot.png', type: 'image/png', bytes: [...PNG] }]);
  await page.getByTestId('composer-input').evaluate((box, clipboardData) => {
    // The browser's ClipboardEvent (not in the Node typings this spec compiles with).
    const browser = globalThis as unknown as { ClipboardEvent: new (type: string, init: object) => Event };
    box.dispatchEvent(new browser.ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  }, clipboard);
  await expect(chip(page, 'screenshot.png')).toContainText('Ready', { timeout: 20_000 });
  await expect(page.getByTestId('send-button')).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
});

test('an unsupported file is refused with the spec message', async ({ page }) => {
  await openChat(page);
  await page.getByTestId('attach-input').setInputFiles({ name: 'photo.pdf', mimeType: 'application/pdf', buffer: PNG });
  await expect(page.getByText('This file format is not supported.')).toBeVisible();
  await expect(page.getByTestId('attachment-chip')).toHaveCount(0);
  await expectAccessibleOnPhone(page);
});

import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, MEMBER, createSession, expectNoSeriousA11yViolations, setSessionPublic, signIn, uniqueName } from './support';
import { expectInsideWindow } from './screens';
import { BREAKPOINTS_PX } from '../../src/shared/domain/ui';

/** The stored answer of the session is served with a code block instead (the demo model writes none). */
async function serveAnswerWithCode(page: Page, code: string): Promise<void> {
  await page.route('**/history/**', async (route) => {
    const response = await route.fetch();
    const history = (await response.json()) as { items: { speaker_type: string; text: string }[] };
    for (const item of history.items) if (item.speaker_type === 'chatbot') item.text = `Run this:\n\n\`\`\`sh\n${code}\n\`\`\``;
    await route.fulfill({ response, json: history });
  });
}

/** The browser's side of the clipboard (the test files are typed without the DOM library). */
interface BrowserClipboard {
  navigator: { clipboard: { readText(): Promise<string> } };
  document: { execCommand(command: string): boolean };
}

const clipboardText = (page: Page) => page.evaluate(() => (globalThis as unknown as BrowserClipboard).navigator.clipboard.readText());

test.describe('sharing a session', () => {
  test('make a session public from the share dialog and copy its link; private again, the link answers not shared', async ({ page, browser, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, ADMIN);
    const { chatbotId, hashId } = await createSession(page, uniqueName('Shared trip'));
    await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share chat' });
    const publicSwitch = dialog.getByRole('switch', { name: 'Public link' });
    await expect(publicSwitch).not.toBeChecked();
    await expect(dialog.getByText('Only you can see this chat.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await publicSwitch.press('Space');
    await expect(publicSwitch).toBeChecked();
    const link = dialog.getByRole('textbox', { name: 'Link' });
    await expect(link).toHaveValue(new RegExp(`/share/${hashId}$`));
    const url = await link.inputValue();
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('tooltip', { name: 'Copied' })).toBeVisible();
    expect(await clipboardText(page)).toBe(url);
    await expectNoSeriousA11yViolations(page);

    // Private again: the link answers "not shared".
    await publicSwitch.click();
    await expect(dialog.getByText('Only you can see this chat.')).toBeVisible();
    const again = await browser.newContext();
    const stranger = await again.newPage();
    await stranger.goto(url);
    await expect(stranger.getByRole('heading', { level: 1, name: 'This chat is not shared' })).toBeVisible();
    await expectNoSeriousA11yViolations(stranger);
    await again.close();
  });

  test('a signed-out visitor opens a shared link: the creator and history, the same link to share, and sign in to chat with a chatbot that is not public', async ({
    page,
  }) => {
    const title = uniqueName('Shared trip');
    const { hashId } = await createSession(page, title);
    await setSessionPublic(page, hashId);
    // Made through the page's own requests: signed out again, the page is a fresh visitor.
    await page.context().clearCookies();
    const url = `/share/${hashId}`;

    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByTestId('shared-session-creator')).toHaveText('General Assistant · Shared by Demo Admin');
    await expect(page.getByTestId('member-message')).toHaveText(`Hello for ${title}`);
    await expect(page.getByTestId('chatbot-message')).toContainText('Demo model');
    await expect(page.getByTestId('composer-input')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Its share dialog gives the same link.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Link' })).toHaveValue(new URL(url, page.url()).href);
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');

    // The chatbot is not public, so a visitor is asked to sign in to chat with it.
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    const start = page.getByRole('dialog', { name: 'Start a new chat' });
    await expect(start.getByText('Sign in to chat with General Assistant.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await start.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('a member starts their own chat with the chatbot from a shared page; the shared chat stays', async ({ page }) => {
    await signIn(page, ADMIN);
    const { chatbotId, hashId } = await createSession(page, uniqueName('Shared trip'));
    await setSessionPublic(page, hashId);
    await page.goto(`/share/${hashId}`);
    await expect(page.getByTestId('shared-session-creator')).toContainText('Shared by Demo Admin');
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    const memberStart = page.getByRole('dialog', { name: 'Start a new chat' });
    await expect(memberStart.getByText(/Start your own chat with General Assistant/)).toBeVisible();
    await memberStart.getByRole('button', { name: 'Start chat' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/chat/${chatbotId}$`));
    await expect(page.getByTestId('chat-welcome')).toBeVisible();
    // The shared chat is still there at its link.
    await page.goto(`/share/${hashId}`);
    await expect(page.getByTestId('shared-session-creator')).toContainText('Shared by Demo Admin');
  });
});

/** The smallest real PNG: 1×1, red. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
const NOTES = 'Agenda: launch on Friday.';

/**
 * The admin's chat with an attached picture and document and an image-mode answer, shared through
 * the API as the share dialog would; returns its hash.
 */
async function sharedSessionWithAttachments(page: Page, title: string): Promise<string> {
  const { access_token: token } = (await (await page.request.post('/api/v1/auth/sign-in/', { data: ADMIN })).json()) as { access_token: string };
  const headers = { 'x-access-token': token };
  const upload = async (name: string, mimeType: string, buffer: Buffer) => {
    const response = await page.request.post('/api/v1/files/', { headers, multipart: { files: { name, mimeType, buffer } } });
    expect(response.status()).toBe(200);
    return ((await response.json()) as { items: { id: number }[] }).items[0]!.id;
  };
  const fileIds = [await upload('whiteboard.png', 'image/png', PNG), await upload('agenda.txt', 'text/plain', Buffer.from(NOTES))];
  const chatbots = (await (await page.request.get('/api/v1/chatbots/?include_default=true', { headers })).json()) as {
    items: { id: number; is_default: boolean }[];
  };
  const chatbotId = chatbots.items.find((chatbot) => chatbot.is_default)!.id;
  const chat = async (data: Record<string, unknown>) => {
    const response = await page.request.post(`/api/v1/chatbots/${chatbotId}/chat/`, { headers, data });
    expect(response.status()).toBe(200);
    await response.body(); // the whole stream, so the answer is stored
    return (JSON.parse(response.headers()['x-chat-meta'] ?? '{}') as { session_hash_id: string }).session_hash_id;
  };
  const hash = await chat({ text: 'What does the whiteboard say?', file_ids: fileIds, session_title: title });
  await chat({ text: 'A lighthouse at dawn', session_hash_id: hash, image_generation: true });
  await setSessionPublic(page, hash);
  return hash;
}

/** Every <img> inside the locator has loaded real pixels (a refused file would leave none). */
async function expectLoadedImage(image: Locator): Promise<void> {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
}

/**
 * A signed-out visitor's window of `width` in `language` on the shared session: the attached picture
 * and the generated image load and the document is offered, all read at the session's public path;
 * axe, and a review shot. Resolves to the paths of the files served.
 */
async function visitSharedFiles(
  browser: Browser,
  hash: string,
  title: string,
  language: 'en' | 'ko',
  [width, height]: readonly [number, number],
  { download = false } = {},
): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width, height } });
  const visitor = await context.newPage();
  await visitor.addInitScript((lng) => localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 })), language);
  const files: string[] = [];
  visitor.on('response', (response) => response.url().includes('/files/') && files.push(`${response.status()} ${new URL(response.url()).pathname}`));
  await visitor.goto(`/share/${hash}`);
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const attached = visitor.getByTestId('member-message').getByTestId('message-files');
  await expectLoadedImage(attached.getByRole('img', { name: 'whiteboard.png' }));
  await expect(attached.getByRole('button', { name: /agenda\.txt/ })).toBeVisible();
  await expectLoadedImage(visitor.getByTestId('generated-image').getByRole('img'));
  // Read at the session's public path, never the member's own (a visitor has no token for it).
  expect(files.length).toBeGreaterThanOrEqual(2);
  for (const file of files) expect(file).toMatch(new RegExp(`^200 /api/v1/public/sessions/${hash}/files/\\d+/$`));
  await expectNoSeriousA11yViolations(visitor);
  // The list opens at its end; the review shot shows the attachments.
  await attached.scrollIntoViewIfNeeded();
  await visitor.screenshot({ path: `test-results/shared-session-files-${language}-${width}.png` });
  if (download) {
    const downloaded = visitor.waitForEvent('download');
    await attached.getByRole('button', { name: 'Open agenda.txt' }).click();
    const saved = await downloaded;
    expect(saved.suggestedFilename()).toBe('agenda.txt');
    expect((await readFile((await saved.path())!)).toString()).toBe(NOTES);
  }
  await context.close();
  return files.map((file) => file.slice('200 '.length));
}

test.describe('a shared session’s files', () => {
  test('a signed-out visitor sees the attached picture and the generated image, and downloads the document (en and ko at 1440 px)', async ({
    page,
    browser,
  }) => {
    const title = uniqueName('Whiteboard notes');
    const hash = await sharedSessionWithAttachments(page, title);
    await visitSharedFiles(browser, hash, title, 'en', [1440, 900], { download: true });
    await visitSharedFiles(browser, hash, title, 'ko', [1440, 900]);
  });

  test('on a phone a signed-out visitor sees them too (en and ko at 375 px); unshared again, the page says so and the files answer 404', async ({
    page,
    browser,
  }) => {
    const title = uniqueName('Whiteboard notes');
    const hash = await sharedSessionWithAttachments(page, title);
    const served = new Set([
      ...(await visitSharedFiles(browser, hash, title, 'en', [375, 812])),
      ...(await visitSharedFiles(browser, hash, title, 'ko', [375, 812])),
    ]);

    await setSessionPublic(page, hash, false);
    const again = await browser.newContext();
    const stranger = await again.newPage();
    await stranger.goto(`/share/${hash}`);
    await expect(stranger.getByRole('heading', { level: 1, name: 'This chat is not shared' })).toBeVisible();
    for (const path of served) expect((await stranger.request.get(path, { headers: { 'x-access-token': 'public' } })).status(), path).toBe(404);
    await again.close();
  });
});

/** The member's chat with the demo admin's public chatbot, shared through the API; returns its hash. */
async function sharedChatWithPublicChatbot(page: Page, text: string): Promise<string> {
  const { access_token: token } = (await (await page.request.post('/api/v1/auth/sign-in/', { data: MEMBER })).json()) as { access_token: string };
  const headers = { 'x-access-token': token };
  const list = (await (await page.request.get('/api/v1/chatbots/?is_public=true', { headers })).json()) as { items: { id: number; en_name: string }[] };
  const chatbot = list.items.find((item) => item.en_name === 'Trip Planner')!;
  const chat = await page.request.post(`/api/v1/chatbots/${chatbot.id}/chat/`, { headers, data: { text, session_title: text } });
  await chat.body();
  const hash = (JSON.parse(chat.headers()['x-chat-meta'] ?? '{}') as { session_hash_id: string }).session_hash_id;
  expect((await page.request.patch(`/api/v1/sessions/${hash}/`, { headers, data: { is_public: true } })).status()).toBe(200);
  return hash;
}

test.describe('a visitor of a public chatbot', () => {
  test('starts a new chat from a shared one: it streams, gets its own link and title, and the shared chat stays at its link', async ({ page }) => {
    const text = uniqueName('Three days in Busan');
    const sharedHash = await sharedChatWithPublicChatbot(page, text);
    await page.context().clearCookies();

    // A link naming another workspace finds nothing there; one naming the chat's own workspace is adopted by the browser.
    await page.goto(`/share/${sharedHash}?workspace=elsewhere`);
    await expect(page.getByRole('heading', { level: 1, name: 'This chat is not shared' })).toBeVisible();
    await page.context().clearCookies();
    await page.goto(`/share/${sharedHash}?workspace=demo`);
    await expect(page.getByRole('heading', { level: 1, name: text })).toBeVisible();
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'subdomain')?.value).toBe('demo');
    await expect(page.getByTestId('shared-session-creator')).toHaveText('Trip Planner · Shared by Demo Member');
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    const start = page.getByRole('dialog', { name: 'Start a new chat' });
    await expect(start.getByText('Start a new chat with Trip Planner. This shared chat stays at its link.')).toBeVisible();
    await start.getByRole('button', { name: 'Start chat' }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'New chat' })).toBeVisible();
    const composer = page.getByTestId('composer-input');
    await expect(composer).toBeFocused();
    await expect(page.getByTestId('member-message')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await composer.fill('Where should we eat on the first evening?');
    await composer.press('Enter');
    await expect(page).not.toHaveURL(new RegExp(sharedHash));
    await expect(page).toHaveURL(/\/share\/[\w-]+$/);
    await expect(page.getByTestId('chatbot-message').last()).toContainText('Where should we eat on the first evening?');
    await expect(page.getByRole('heading', { level: 1, name: 'Eat on the first evening' })).toBeVisible();
    await expect(page.getByTestId('shared-session-creator')).toHaveText('Trip Planner · Started by a visitor');
    await expect(page.getByTestId('copy-answer')).toBeVisible();

    // The new chat continues on its link; the shared one is unchanged at its own.
    const visitorUrl = page.url();
    await page.reload();
    await expect(page.getByTestId('member-message')).toHaveText('Where should we eat on the first evening?');
    await page.goto(`/share/${sharedHash}`);
    await expect(page.getByTestId('member-message')).toHaveText(text);
    expect(visitorUrl).not.toContain(sharedHash);
  });
});

test.describe('copy buttons', () => {
  test('copy an answer and a code block from the keyboard; the tooltip says Copied for 3 seconds', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, ADMIN);
    const { chatbotId, hashId } = await createSession(page, uniqueName('Copy me'));
    await serveAnswerWithCode(page, 'npm install && npm test');
    await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
    // The opened chat puts focus in its message box once; only then is focus ours to move.
    await expect(page.getByTestId('composer-input')).toBeFocused();

    const copyCode = page.getByRole('button', { name: 'Copy code' });
    await copyCode.focus();
    const pressedAt = Date.now();
    await page.keyboard.press('Enter');
    const copied = page.getByRole('tooltip', { name: 'Copied' });
    await expect(copied).toBeVisible();
    expect(await clipboardText(page)).toBe('npm install && npm test');
    await expect(copied).toBeHidden({ timeout: 8000 });
    expect(Date.now() - pressedAt).toBeGreaterThanOrEqual(3000);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Copy answer' }).focus();
    await page.keyboard.press('Space');
    await expect(page.getByRole('tooltip', { name: 'Copied' })).toBeVisible();
    expect(await clipboardText(page)).toBe('Run this:\n\n```sh\nnpm install && npm test\n```');
  });

  test('a refused clipboard shows an error toast', async ({ page }) => {
    await page.addInitScript(() => {
      const browser = globalThis as unknown as BrowserClipboard;
      Object.defineProperty(browser.navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
      browser.document.execCommand = () => false;
    });
    await signIn(page, ADMIN);
    const { chatbotId, hashId } = await createSession(page, uniqueName('No clipboard'));
    await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
    await page.getByRole('button', { name: 'Copy answer' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not copy to the clipboard.' })).toBeVisible();
  });
});

test.describe('chat page', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN);
  });

  test('a chatbot that is gone shows the unavailable page with a way to the default chat', async ({ page }) => {
    await page.goto('/dashboard/chat/987654');
    await expect(page.getByRole('heading', { level: 1, name: 'This chatbot is not available' })).toBeVisible();
    await expect(page.getByText(/deleted, made private, or is no longer open to your groups/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Go to the default chat' }).click();
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
    await expect(page.getByTestId('chat-welcome')).toBeVisible();
  });

  test('the chatbot switcher searches the chatbots as you type and opens one from the keyboard', async ({ page }) => {
    await expect(page.getByTestId('chat-welcome')).toBeVisible();
    const current = page.url();
    const switcher = page.getByTestId('chatbot-switcher');
    await expect(switcher).toHaveText('General Assistant');
    await switcher.click();
    const search = page.getByRole('textbox', { name: 'Search chatbots' });
    await expect(search).toBeFocused();
    // The three default chatbots first, then public ones such as the demo admin's Trip Planner
    // (other specs publish more).
    await expect(page.getByRole('option').nth(2)).toHaveText('Writing Coach');
    await expect(page.getByRole('option', { name: 'Trip Planner', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Arrow keys move through the list (the first entry is selected on opening).
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('option', { name: 'Quick Helper' })).toHaveAttribute('data-combobox-selected', 'true');
    await expect(search).toHaveAttribute('aria-activedescendant', (await page.getByRole('option', { name: 'Quick Helper' }).getAttribute('id'))!);

    const searched = page.waitForRequest((request) => request.url().includes('search_term=writ'));
    await search.pressSequentially('writ');
    await searched;
    await expect(page.getByRole('option')).toHaveText(['Writing Coach']);
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(current);
    await expect(page.getByTestId('chatbot-switcher')).toHaveText('Writing Coach');
    // Opening a chat puts focus in its message box.
    await expect(page.getByTestId('composer-input')).toBeFocused();

    await page.getByTestId('chatbot-switcher').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('textbox', { name: 'Search chatbots' }).fill('nothing like this');
    await expect(page.getByText('No matching chatbot')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('chatbot-switcher')).toBeFocused();
  });

  test('on a phone the switcher is in the header and reaches a chatbot that is not in the Store', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(page.getByTestId('chat-welcome')).toBeVisible();
    const switcher = page.getByRole('button', { name: 'General Assistant · Search chatbots' });
    await expectInsideWindow(page, switcher);
    await switcher.click();
    // Quick Helper is one of the tenant's default chatbots, which the Store does not list.
    const option = page.getByRole('option', { name: 'Quick Helper' });
    await expectInsideWindow(page, option);
    await expectNoSeriousA11yViolations(page);
    await option.click();
    await expect(page.getByTestId('chatbot-name')).toHaveText('Quick Helper');
    await expect(page.getByRole('button', { name: 'Quick Helper · Search chatbots' })).toBeVisible();
  });

  test('on a phone the model details wait behind the chatbot name, shown and hidden by a tap or the keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await expect(page.getByTestId('chat-welcome')).toBeVisible();
    const header = page.locator('header').filter({ has: page.getByTestId('session-title') });
    const details = page.getByTestId('model-details');
    const toggle = page.getByRole('button', { name: 'General Assistant · Model details' });
    // Two lines: the session title, then the chatbot's name.
    await expect(details).toBeHidden();
    expect((await header.boundingBox())!.height).toBeLessThan(80);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await expect(details).toBeVisible();
    await expect(details).toContainText('tokens context');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expectNoSeriousA11yViolations(page);
    await toggle.press('Enter');
    await expect(details).toBeHidden();
    await toggle.press('Space');
    await expect(details).toBeVisible();

    // From the theme's laptop breakpoint (905px) the header has room: details on the line, the switcher named.
    await page.setViewportSize({ width: BREAKPOINTS_PX.laptop, height: 812 });
    await expect(toggle).toBeHidden();
    await expect(details).toBeVisible();
    await expect(page.getByTestId('chatbot-switcher')).toHaveText('General Assistant');
    await page.setViewportSize({ width: BREAKPOINTS_PX.laptop - 1, height: 812 });
    await expect(toggle).toBeVisible();
    await expect(page.getByTestId('chatbot-switcher')).toHaveText('');
  });
});

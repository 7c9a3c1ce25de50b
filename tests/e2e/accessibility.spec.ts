import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, MEMBER, createSession, expectNoSeriousA11yViolations, signIn, skipAnnouncementPopup, uniqueName } from './support';
import { expectAccessibleOnPhone, serveLongConversation } from './screens';
import { chunked, test as fakeLlmTest } from './fakeLlmServer';

/**
 * Every screen passes axe with no serious or critical violation (at a phone's width too), and every flow works from the
 * keyboard alone: these tests press keys instead of clicking, and assert where focus lands after
 * each step (never on <body>).
 */

async function tenantName(page: Page): Promise<string> {
  return ((await (await page.request.get('/api/v1/tenants/')).json()) as { tenant_name: string }).tenant_name;
}

/** Tabs forward until `target` has focus; fails after `limit` presses. Returns the presses used. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<number> {
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return presses;
  }
  throw new Error(`not reached with ${limit} Tab presses`);
}

const focusIsOnBody = (page: Page) => page.locator('body').evaluate((body) => [body, null].includes(body.ownerDocument.activeElement));

async function expectBelow(upper: Locator, lower: Locator) {
  const [top, bottom] = [(await upper.boundingBox())!, (await lower.boundingBox())!];
  expect(bottom.y).toBeGreaterThanOrEqual(top.y + top.height);
}

test('sign-in: landmarks, h1, title, skip link first, and signing in by keyboard alone', async ({ page }) => {
  const tenant = await tenantName(page);
  await skipAnnouncementPopup(page);
  await page.goto('/auth');
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  await expect(page).toHaveTitle(`Sign in · ${tenant}`);
  await expectAccessibleOnPhone(page, { restore: true });

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(MEMBER.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(MEMBER.password);
  await page.keyboard.press('Enter');
  // The chat that opens has its message box focused, ready to type.
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await expect(page).toHaveTitle(`New chat · ${tenant}`);
});

test('new chat: the message box has focus, the skip link leads past the navigation, the chat title is the h1', async ({ page }) => {
  await signIn(page, MEMBER);
  const box = page.getByTestId('composer-input');
  await expect(box).toBeFocused();
  await expect(page.getByRole('heading', { level: 1, name: 'New chat' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'Skip to content' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // From the main landmark the message box is a few Tab stops away, not the whole navigation.
  expect(await tabTo(page, box, 12)).toBeLessThanOrEqual(6);
});

// The answer streams from the fake LLM at the pace the test sets, so it is still streaming when
// Tab reaches Stop, however busy the machine.
fakeLlmTest('chat: send and Stop by keyboard put focus back in the message box; the finished chat passes axe', async ({ page, llm }) => {
  llm.fake.setBehaviour({ chunks: chunked('A long streamed answer. '.repeat(60)), delayMs: 100 });
  const tenant = await tenantName(page);
  await signIn(page, MEMBER);
  const box = page.getByTestId('composer-input');
  await expect(box).toBeFocused();
  await page.keyboard.type('Please explain how a streamed answer travels to this window');
  await page.keyboard.press('Enter');
  const stop = page.getByTestId('stop-button');
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toContainText('A long streamed answer.');
  // Creating the session changes the URL; that is no newly opened chat, so focus stays put.
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);
  await expect(box).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(stop).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('interrupted-badge')).toHaveText('Stopped');
  await expect(box).toBeFocused();

  llm.fake.setBehaviour({ chunks: chunked('A short answer.'), delayMs: 0 });
  await page.keyboard.type('A short one');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chatbot-message')).toHaveCount(2);
  await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('chatbot-message').last()).toContainText('A short answer.');
  expect(await focusIsOnBody(page)).toBe(false);
  const title = page.getByTestId('session-title');
  await expect(title).not.toHaveText(/Untitled|New chat/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText((await title.textContent())!);
  await expect(page).toHaveTitle(`${await title.textContent()} · ${tenant}`);
  await expectAccessibleOnPhone(page);
});

test('an answer with a wide code block and a table: both reachable by keyboard to scroll, axe clean at 1440 and 375 px', async ({ page }) => {
  await signIn(page, ADMIN);
  const { chatbotId, hashId } = await createSession(page, 'Wide answer');
  await serveLongConversation(page);
  await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
  const code = page.getByTestId('chatbot-message').locator('pre');
  await expect(code).toBeVisible();
  // An opened chat puts focus in the message box once its history is shown: moved on from there.
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await code.focus();
  await expect(code).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await expectAccessibleOnPhone(page);
});

test('rename and delete dialogs: named close buttons, safe initial focus, focus lands on a sensible control afterwards', async ({ page }) => {
  await signIn(page, ADMIN);
  const first = uniqueName('Keyboard first');
  const second = uniqueName('Keyboard second');
  await createSession(page, first);
  const { chatbotId, hashId } = await createSession(page, second);
  await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
  await expect(page.getByTestId('composer-input')).toBeFocused();

  // Rename: opens on the title field, returns to the rename button, and its toast covers no header control.
  const rename = page.getByRole('button', { name: 'Rename', exact: true });
  await rename.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rename session' });
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const renamed = uniqueName('Renamed by keyboard');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(renamed);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(rename).toBeFocused();
  const toast = page.getByRole('status').filter({ hasText: 'Session renamed.' });
  await expect(toast).toBeVisible();
  await expectBelow(page.getByRole('main').locator('header').first(), toast);

  // Delete another chat from My chats: opens on Cancel, then focus moves to the chat that took its place.
  const list = page.getByTestId('session-list');
  const items = page.getByTestId('session-item');
  const target = items.filter({ hasText: first });
  const titles = await items.getByRole('link').allTextContents();
  const index = titles.indexOf(first);
  // The chat below takes the deleted one's place; at the end of the list, the one above.
  const expectedTitle = titles[index + 1] ?? titles[index - 1];
  await target.getByRole('link').focus();
  await page.keyboard.press('Tab');
  await expect(target.getByRole('button', { name: `Delete “${first}”` })).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(confirm.getByRole('button', { name: 'Close' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Chat “${first}” deleted.` })).toBeVisible();
  await expect(list.getByRole('link', { name: first })).toHaveCount(0);
  await expect(list.getByRole('link', { name: expectedTitle, exact: true })).toBeFocused();

  // Deleting the open chat from its header opens a new chat, with the message box focused.
  await page.locator('header').getByRole('button', { name: 'Delete', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
  await expect(page.getByRole('status').filter({ hasText: `Chat “${renamed}” deleted.` })).toBeVisible();
  await expect(page.getByTestId('composer-input')).toBeFocused();
});

test('announcement popup: passes axe, closes by keyboard, and focus goes to the page', async ({ page }) => {
  await signIn(page, MEMBER, { showAnnouncement: true });
  const popup = page.getByRole('dialog', { name: 'Announcement' });
  await expect(popup).toBeVisible();
  await expectAccessibleOnPhone(page);
  const close = popup.getByRole('button', { name: 'Close' });
  await close.focus();
  await page.keyboard.press('Enter');
  await expect(popup).toHaveCount(0);
  await expect.poll(() => page.locator('#main-content').evaluate((main) => main.contains(main.ownerDocument.activeElement))).toBe(true);
});

test('admin announcements: editor by keyboard (one-stop toolbar, Escape keeps the draft), delete confirmation, focus after each', async ({ page }) => {
  const tenant = await tenantName(page);
  await signIn(page, ADMIN, { to: '/admin/announcements' });
  await expect(page.getByTestId('announcement-card').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Announcements' })).toBeVisible();
  await expect(page).toHaveTitle(`Announcements · ${tenant}`);
  await expectNoSeriousA11yViolations(page);

  const newButton = page.getByRole('button', { name: 'New announcement' });
  await newButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New announcement' });
  const text = dialog.getByRole('textbox', { name: 'Announcement text' });
  await expect(text).toBeFocused();
  await expectNoSeriousA11yViolations(page);

  // The toolbar is a single Tab stop; arrow keys move inside it.
  const toolbar = dialog.getByRole('toolbar', { name: 'Formatting' });
  await page.keyboard.press('Shift+Tab');
  await expect(toolbar.getByRole('button', { name: 'Bold' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(toolbar.getByRole('button', { name: 'Italic' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(toolbar.locator(':focus')).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(toolbar.getByRole('button', { name: 'Italic' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(text).toBeFocused();

  // Escape with unsaved text asks first and keeps the draft.
  const draft = uniqueName('Keyboard notice');
  await page.keyboard.type(draft);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  const keep = dialog.getByRole('button', { name: 'Keep editing' });
  await expect(keep).toBeFocused();
  await expect(dialog.getByRole('alertdialog')).toContainText('Discard your changes?');
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Enter');
  await expect(text).toBeFocused();
  await expect(text).toContainText(draft);

  // Create it from the keyboard: Tab past the switch to Create.
  await tabTo(page, dialog.getByRole('button', { name: 'Create' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(newButton).toBeFocused();
  const created = page.getByRole('status').filter({ hasText: 'Announcement created.' });
  await expect(created).toBeVisible();
  await expectBelow(newButton, created);

  // Escape on an untouched editor closes at once.
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('textbox', { name: 'Announcement text' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(newButton).toBeFocused();

  // Delete: opens on Cancel; after deleting, focus continues from New announcement.
  const card = page.getByTestId('announcement-card').filter({ hasText: draft });
  await card.getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete this announcement?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Announcement deleted.' })).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(newButton).toBeFocused();
});

test('restricted page and the studio, store and developers frames: h1, title, no serious violations', async ({ page }) => {
  const tenant = await tenantName(page);
  await signIn(page, MEMBER);
  // On a page without a message box, the skip link is the first Tab stop.
  await page.goto('/dashboard/studio');
  await expect(page.getByRole('heading', { level: 1, name: 'Studio' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  for (const [path, heading] of [
    ['/dashboard/studio', 'Studio'],
    ['/dashboard/store', 'Store'],
    ['/dashboard/developers', 'Developers'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${heading} · ${tenant}`);
    await expectAccessibleOnPhone(page, { restore: true });
  }
  await page.goto('/admin');
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'This is a restricted access page.' })).toBeVisible();
  await expect(page).toHaveTitle(`Restricted access · ${tenant}`);
  await expectAccessibleOnPhone(page);
});

test('the desktop setup page is not part of the web build', async ({ page }) => {
  // It is checked in its component test; the web build sends /setup home.
  await signIn(page, MEMBER, { to: '/setup' });
  await expect(page).toHaveURL(/\/dashboard\/chat/);
});

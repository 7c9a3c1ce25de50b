import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, signIn } from './support';
import { SCREEN_CHECKS } from './screens';

/** The demo admin's published Trip Planner (seeded by the demo server). */
async function tripPlanner(page: Page): Promise<{ id: number; hash_id: string }> {
  const { access_token: token } = (await (await page.request.post('/api/v1/auth/sign-in/', { data: ADMIN })).json()) as { access_token: string };
  const list = (await (await page.request.get('/api/v1/chatbots/?is_public=true&search_term=Trip', { headers: { 'x-access-token': token } })).json()) as {
    items: { id: number; hash_id: string; en_name: string }[];
  };
  return list.items.find((item) => item.en_name === 'Trip Planner')!;
}

/** Uncaught errors of the visitors' pages: none is expected. */
const pageErrors: string[] = [];
test.afterEach(() => expect(pageErrors.splice(0)).toEqual([]));

/** A signed-out browser in a language and width of its own. */
async function visitorPage(browser: Browser, language: 'en' | 'ko', width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width > 400 ? 900 : 812 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error.stack)));
  await page.addInitScript((lng) => localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 })), language);
  return page;
}

test.describe.configure({ mode: 'serial' });

/** The custom link the first test sets in the Studio, and the address the Studio shows for it. */
let link = '';
let pageUrl = '';

test('the Studio shows a published chatbot’s public page at its custom link', async ({ page }) => {
  await signIn(page, ADMIN);
  const { id: chatbotId } = await tripPlanner(page);
  link = `trip-${Date.now().toString(36)}`;
  await page.goto(`/dashboard/studio/${chatbotId}`);
  await page.getByTestId('open-access').click();
  let dialog = page.getByRole('dialog', { name: 'Who can use this chatbot' });
  await dialog.getByTestId('public-hash-input').fill(link);
  await expect(dialog.getByText('This link is available.')).toBeVisible();
  await dialog.getByTestId('access-save').click();
  await expect(page.getByText('Access saved.')).toBeVisible();
  await page.getByTestId('open-access').click();
  dialog = page.getByRole('dialog', { name: 'Who can use this chatbot' });
  const pageLink = dialog.getByTestId('public-page-link');
  await expect(pageLink).toHaveText(new RegExp(`/chatbots/${link}(\\?workspace=demo)?$`));
  await expect(pageLink).toHaveAttribute('target', '_blank');
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/public/studio-public-link.png' });
  pageUrl = (await pageLink.getAttribute('href'))!;
});

test('a signed-out visitor opens that link and chats with the chatbot; the chat keeps its own address', async ({ browser }) => {
  const visitor = await visitorPage(browser, 'en', 1440);
  await visitor.goto(pageUrl);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Trip Planner' })).toBeVisible();
  await expect(visitor.getByTestId('public-chatbot-creator')).toHaveText('By Demo Admin');
  const intro = visitor.getByTestId('public-chatbot-intro');
  await expect(intro).toContainText('Plans trips day by day.');
  await expect(intro).toContainText('Lifestyle');
  // What the chatbot allows a visitor: no attachments, no image mode; thinking (its model reasons).
  await expect(visitor.getByTestId('attach-button')).toHaveCount(0);
  await expect(visitor.getByTestId('image-mode-button')).toHaveCount(0);

  await visitor.getByTestId('thinking-mode-button').click();
  await expect(visitor.getByTestId('thinking-mode-button')).toHaveAttribute('aria-pressed', 'true');
  const composer = visitor.getByTestId('composer-input');
  await composer.fill('Two days in Gyeongju, please');
  await composer.press('Enter');
  await expect(visitor).toHaveURL(new RegExp(`/chatbots/${link}/[\\w-]+`));
  await expect(visitor.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0);
  await expect(visitor.getByTestId('chatbot-message')).toContainText('Two days in Gyeongju, please');
  await expect(visitor.getByTestId('thinking-block')).toBeVisible();
  await expectNoSeriousA11yViolations(visitor);
  await visitor.screenshot({ path: 'test-results/public/public-chatbot-chat-en-1440.png' });

  // The chat comes back at its address; a new chat starts empty, the old one stays at its link.
  const chatUrl = visitor.url();
  await visitor.reload();
  await expect(visitor.getByTestId('member-message')).toHaveText('Two days in Gyeongju, please');
  await visitor.getByTestId('public-chatbot-new-chat').click();
  await expect(visitor).toHaveURL(new RegExp(`/chatbots/${link}$`));
  await expect(visitor.getByTestId('public-chatbot-intro')).toBeVisible();
  await visitor.goto(chatUrl);
  await expect(visitor.getByTestId('member-message')).toHaveText('Two days in Gyeongju, please');
  await visitor.context().close();
});

test('the public chatbot page by its hash id, in English at 1440 px and in Korean at 375 px', async ({ page, browser }) => {
  await signIn(page, ADMIN);
  const url = `/chatbots/${(await tripPlanner(page)).hash_id}`;
  for (const { language, width } of SCREEN_CHECKS) {
    const shot = await visitorPage(browser, language, width);
    await shot.goto(url);
    await expect(shot.getByRole('heading', { level: 1, name: language === 'ko' ? '여행 플래너' : 'Trip Planner' })).toBeVisible();
    await expect(shot.getByTestId('public-chatbot-intro')).toContainText(language === 'ko' ? '여행 일정을 하루 단위로' : 'Plans trips day by day.');
    await expectNoSeriousA11yViolations(shot);
    await shot.screenshot({ path: `test-results/public/public-chatbot-${language}-${width}.png` });
    await shot.context().close();
  }
});

test('a chatbot that is not public, or no such link, has no page', async ({ browser }) => {
  const stranger = await visitorPage(browser, 'en', 1440);
  await stranger.goto('/chatbots/no-such-chatbot?workspace=demo');
  await expect(stranger.getByRole('heading', { level: 1, name: 'This chatbot is not available' })).toBeVisible();
  await expectNoSeriousA11yViolations(stranger);
  await stranger.context().close();
});

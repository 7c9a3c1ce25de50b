import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { UpdateChatbotBody } from '../../src/shared/api/chatbots';
import { dismissAnnouncement } from '../../src/renderer/src/features/announcements/announcementDismissal';

/** Demo accounts seeded by `npm run server` (issue 2). */
export const ADMIN = { email: 'admin@demo.test', password: 'DemoAdmin!234' };
export const MEMBER = { email: 'member@demo.test', password: 'DemoMember!234' };

const API = '/api/v1';

/**
 * Marks the announcement active right now as "don't show again" in the page's localStorage before
 * any app script runs, so the dashboard's announcement popup does not cover the flow under test.
 */
export async function skipAnnouncementPopup(page: Page): Promise<void> {
  const { subdomain } = (await (await page.request.get(`${API}/tenants/`)).json()) as { subdomain: string };
  const { announcement } = (await (await page.request.get(`${API}/announcements/active/`)).json()) as { announcement: { id: number } | null };
  if (!announcement) return;
  const entries = new Map<string, string>();
  dismissAnnouncement({ getItem: (key) => entries.get(key) ?? null, setItem: (key, value) => entries.set(key, value) }, subdomain, announcement.id);
  await page.addInitScript(
    (items) => {
      for (const [key, value] of items) localStorage.setItem(key, value);
    },
    [...entries],
  );
}

/**
 * An admin's access token for API calls from a test. Signed in as the desktop client, so the
 * refresh token comes back in the body and no cookie lands in the context (a page sharing it stays
 * signed out).
 */
export async function adminHeaders(request: APIRequestContext, account: { email: string; password: string } = ADMIN): Promise<Record<string, string>> {
  const response = await request.post(`${API}/auth/sign-in/`, { data: account, headers: { 'x-client-kind': 'desktop' } });
  expect(response.ok()).toBe(true);
  const { access_token } = (await response.json()) as { access_token: string };
  return { 'x-access-token': access_token };
}

export interface AnnouncementItem {
  id: number;
  content: string;
  is_active: boolean;
}

/**
 * Makes sure an announcement is active and returns it with the others. The specs share one server,
 * and earlier ones may have deactivated or deleted the active announcement.
 */
export async function ensureActiveAnnouncement(
  request: APIRequestContext,
): Promise<{ active: AnnouncementItem; items: AnnouncementItem[]; headers: Record<string, string> }> {
  const headers = await adminHeaders(request);
  const { items } = (await (await request.get(`${API}/admin/announcements/?size=100`, { headers })).json()) as { items: AnnouncementItem[] };
  let active = items.find((item) => item.is_active);
  if (!active && items[0]) {
    const response = await request.patch(`${API}/admin/announcements/${items[0].id}/`, { headers, data: { is_active: true } });
    expect(response.ok()).toBe(true);
    active = (await response.json()) as AnnouncementItem;
  }
  if (!active) {
    const response = await request.post(`${API}/admin/announcements/`, {
      headers,
      data: { content: '# Welcome\n\nAn announcement for the tests.', is_active: true },
    });
    expect(response.ok()).toBe(true);
    active = (await response.json()) as AnnouncementItem;
    items.push(active);
  }
  return { active, items, headers };
}

/**
 * Signs in through the form and waits for the dashboard: for the specs about the form (where it
 * leads, the keyboard). The announcement popup is skipped unless the test is about it.
 */
export async function signInThroughForm(page: Page, account: { email: string; password: string }, { showAnnouncement = false } = {}): Promise<void> {
  if (!showAnnouncement) await skipAnnouncementPopup(page);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('new-chat')).toBeVisible();
}

/**
 * Opens `path` in the running app as its own links do (the router follows the browser's history),
 * not by loading the page anew: a load starts the whole app again, about a second of the browser's
 * CPU. For a screen with a title of its own (PageFrame, AdminPageFrame) reached from another in the
 * same session: it returns once the document's title is the new screen's, so the screen is there.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const before = await page.title();
  // A page expression: this project has no DOM types.
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
  await expect(page, `the title of ${path}`).not.toHaveTitle(before);
}

/**
 * Signs in through the API, as the web client's form does (the refresh cookie lands in the page's
 * context), then opens the dashboard, or the page `to` names, which resumes the session from the
 * cookie. The form costs about two seconds a test; the specs that are about it use
 * `signInThroughForm`. A test bound elsewhere says `to`: opening the chat first and then its page
 * started the app twice, a second of the browser's CPU each.
 */
export async function signIn(page: Page, account: { email: string; password: string }, { showAnnouncement = false, to = '' } = {}): Promise<void> {
  if (!showAnnouncement) await skipAnnouncementPopup(page);
  const response = await page.request.post(`${API}/auth/sign-in/`, { data: account });
  expect(response.ok(), `sign-in of ${account.email}`).toBe(true);
  if (to) {
    // The page's own checks wait for what it shows.
    await page.goto(to);
    return;
  }
  await page.goto('/dashboard/chat');
  await expect(page.getByTestId('new-chat')).toBeVisible();
}

/**
 * Creates a session with one exchange straight through the API, as the chat screen would, so
 * session tests do not depend on the chat UI. Uses the page's cookie jar, so the page stays
 * signed in.
 */
export async function createSession(page: Page, title: string): Promise<{ chatbotId: number; hashId: string }> {
  const signInResponse = await page.request.post(`${API}/auth/sign-in/`, { data: ADMIN });
  expect(signInResponse.ok()).toBe(true);
  const { access_token: token } = (await signInResponse.json()) as { access_token: string };
  const headers = { 'x-access-token': token };
  const chatbots = (await (await page.request.get(`${API}/chatbots/?include_default=true&size=30`, { headers })).json()) as {
    items: { id: number; is_default: boolean }[];
  };
  const chatbotId = chatbots.items.find((chatbot) => chatbot.is_default)!.id;
  const chat = await page.request.post(`${API}/chatbots/${chatbotId}/chat/`, { headers, data: { text: `Hello for ${title}`, session_title: title } });
  expect(chat.status()).toBe(200);
  await chat.body(); // the whole stream, so the answer is stored
  const meta = JSON.parse(chat.headers()['x-chat-meta'] ?? '{}') as { session_hash_id: string };
  return { chatbotId, hashId: meta.session_hash_id };
}

export const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Creates a chatbot from the Studio as a member does: Create, a name in the dialog, Create again;
 * resolves when its editor is open.
 */
export async function createChatbotInStudio(page: Page, name: string): Promise<void> {
  await page.getByTestId('create-chatbot').first().click();
  await page.getByTestId('new-chatbot-name').fill(name);
  await page.getByTestId('confirm-create-chatbot').click();
  await page.waitForURL(/\/dashboard\/studio\/\d+$/);
}

/**
 * A chatbot of `account`'s made through the API, as the Studio's Create and Save make it (private,
 * with its names and whatever else `profile` sets); resolves to its id.
 */
export async function createChatbotThroughApi(
  request: APIRequestContext,
  account: { email: string; password: string },
  profile: UpdateChatbotBody & { en_name: string },
): Promise<number> {
  const headers = await adminHeaders(request, account);
  const created = await request.post(`${API}/chatbots/`, { headers, data: { en_name: profile.en_name } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: number };
  expect((await request.patch(`${API}/chatbots/${id}/`, { headers, data: profile })).ok()).toBe(true);
  return id;
}

/** Switches the language on screen as the language menu would, through the persisted user-data. */
export async function showInLanguage(page: Page, language: 'en' | 'ko'): Promise<void> {
  const storedLanguage = () =>
    page.evaluate(() => (JSON.parse(localStorage.getItem('user-data') ?? '{}') as { state?: { language?: string } }).state?.language);
  // The running page may still store its own state (the member saved after the session resumed)
  // between the write and the reload, overwriting the choice: write again until it survives one.
  await expect(async () => {
    await page.evaluate((lng) => {
      const stored = JSON.parse(localStorage.getItem('user-data') ?? '{}') as { state?: { language?: string } };
      localStorage.setItem('user-data', JSON.stringify({ ...stored, state: { ...stored.state, language: lng } }));
    }, language);
    await page.reload();
    expect(await storedLanguage()).toBe(language);
  }).toPass();
}

/** Waits two animation frames: what a resize or an opening dialog starts has begun by then. */
export async function nextFrames(page: Page): Promise<void> {
  // A page expression: this project has no DOM types.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

/**
 * Runs axe-core on what the page shows now and fails on any serious or critical violation (the
 * accessibility budget is zero). Waits for running transitions first: a modal fading in has
 * half-transparent text that axe would measure at the wrong contrast. Every spec calls this on each
 * screen it reaches, so a new screen is checked by adding one line.
 */
/** Waits until no CSS animation or transition on the page is running (a fade, a slide). */
export async function animationsSettled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page
        .locator('html')
        .evaluate((html) => html.ownerDocument.getAnimations().every((animation: { playState: string }) => animation.playState !== 'running')),
    )
    .toBe(true);
}

/** The serious and critical violations axe finds on what the page shows now, one line per node. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Mantine starts a dialog's transition a frame after it opens: let it begin before waiting for it
  // to end, or axe may read colours halfway through the fade.
  await nextFrames(page);
  await animationsSettled(page);
  // Only the violations come back: the passes with every node they matched were most of what the
  // runner received and parsed. Legacy mode runs axe in the page itself; the default opens a blank
  // page for every check to merge the frames' results in, which took 60% of a check's 0.7 s (the
  // app has no frames; legacy mode still checks any there are, through axe's own messaging).
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`),
    );
}

export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // A toast or tooltip that starts to fade out while axe runs (its timer ran out meanwhile: a check
  // takes seconds on a busy machine) is read at a fraction of its contrast. What is wrong stays
  // wrong once the page has settled, so a finding is checked again before it fails the test.
  const found = await seriousViolations(page);
  const serious = found.length === 0 ? found : await seriousViolations(page);
  expect(serious, `axe on ${page.url()}`).toEqual([]);
}

/** Makes the admin's session public (or private) through the API, as the share dialog would. */
export async function setSessionPublic(page: Page, hashId: string, isPublic = true): Promise<void> {
  const signInResponse = await page.request.post(`${API}/auth/sign-in/`, { data: ADMIN });
  const { access_token: token } = (await signInResponse.json()) as { access_token: string };
  const response = await page.request.patch(`${API}/sessions/${hashId}/`, { headers: { 'x-access-token': token }, data: { is_public: isPublic } });
  expect(response.status()).toBe(200);
}

/** The tenant's remaining credits as an admin's credit check reports them. */
export async function tenantCredits(request: APIRequestContext): Promise<number> {
  const signedIn = await request.post(`${API}/auth/sign-in/`, { data: ADMIN, headers: { 'x-client-kind': 'desktop' } });
  const { access_token: token, member: me } = (await signedIn.json()) as { access_token: string; member: { id: number } };
  const headers = { 'x-access-token': token };
  const check = (await (await request.get(`${API}/members/${me.id}/credit-check/`, { headers })).json()) as { tenant: { remaining_credit: number } };
  return check.tenant.remaining_credit;
}

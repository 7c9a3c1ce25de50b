import { expect, type Locator, type Page } from '@playwright/test';
import { BREAKPOINTS_PX } from '../../src/shared/domain/ui';
import {
  ADMIN,
  MEMBER,
  createChatbotInStudio,
  createSession,
  ensureActiveAnnouncement,
  expectNoSeriousA11yViolations,
  nextFrames,
  openInApp,
  setSessionPublic,
  skipAnnouncementPopup,
} from './support';

/** The widths of the spec (§9) in pixels, as the theme declares them; below sm (768) the navigation is a drawer. */
export const BREAKPOINTS = Object.values(BREAKPOINTS_PX);

type Language = 'en' | 'ko';

/** The few visible names the walk needs, per language on screen. */
const NAMES = {
  en: { menu: 'Menu', newAnnouncement: 'New announcement', studio: 'Studio' },
  ko: { menu: '메뉴', newAnnouncement: '새 공지사항', studio: '스튜디오' },
} satisfies Record<Language, Record<string, string>>;

const LONG_URL =
  'https://docs.example.com/platform/guides/streaming/answers/without/any/natural/break/opportunities/in/them?utm_source=chat&utm_medium=answer#the-section-you-wanted';
const LONG_WORD = 'Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft';

/** An answer that is hard to fit on a phone: long words, a long URL, wide code, a table. */
const LONG_ANSWER = [
  `## Streaming answers\n\nEvery frame is appended to the bubble as it arrives; see ${LONG_URL} for the details of ${LONG_WORD}.`,
  '```ts\nexport async function readChatFrames(response: Response, onFrame: (frame: ChatFrame) => void, signal: AbortSignal): Promise<void> {\n  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();\n}\n```',
  'Call `useActiveRunStore.getState().startRunWithAVeryLongIdentifierName()` to begin.',
  '| Setting | Default | Meaning |\n|---|---|---|\n| `DEMO_TOKEN_DELAY_MS` | 15 | Delay between demo tokens in milliseconds |\n| `SIGN_IN_RATE_LIMIT` | 10 | Sign-in attempts per minute and address |',
  '1. Open the chat.\n2. Ask a question.\n3. Watch the answer stream in.',
].join('\n\n');

const LONG_QUESTION = `Please explain ${LONG_URL} and ${LONG_WORD} in detail.`;

/** The stored conversation of the session is served with the long question and answer instead. */
export async function serveLongConversation(page: Page): Promise<void> {
  await page.route('**/history/**', async (route) => {
    const response = await route.fetch();
    const history = (await response.json()) as { items: { speaker_type: string; text: string }[] };
    for (const item of history.items) item.text = item.speaker_type === 'member' ? LONG_QUESTION : LONG_ANSWER;
    await route.fulfill({ response, json: history });
  });
}

/**
 * A stand-in for the desktop preload: enough of `window.bridge` for the server setup page, which
 * the web build otherwise never shows.
 */
async function pretendDesktop(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const ok = (value: unknown) => Promise.resolve({ ok: true, value });
    const never = () => () => {};
    Object.assign(globalThis, {
      bridge: {
        session: { restore: () => ok(null), onEnded: never, onStorageUnavailable: never, storageStatus: () => ok({ storage: 'keychain' }) },
        settings: { get: () => ok({ apiBase: 'https://chat.example.com/api/v1', subdomain: 'demo' }) },
      },
    });
  });
}

/** Fills the sign-in form in whatever language is on screen. */
async function submitSignIn(page: Page, account: { email: string; password: string }) {
  await page.getByRole('textbox').first().fill(account.email);
  await page.locator('input[type="password"]').fill(account.password);
  await page.locator('button[type="submit"]').click();
}

/** A phone's window at the spec's smallest width (§9). */
export const PHONE_VIEWPORT = { width: BREAKPOINTS_PX.phone, height: 812 };

/**
 * The language and width pairs a screen's own axe test runs in: English on a desktop, Korean on a
 * phone. Both languages and both layouts are checked, and the longer Korean labels meet the narrow
 * window; the other two pairs added a third of the suite's browser time and found nothing these two
 * did not (docs/decisions/0074-end-to-end-cpu.md). `npm run screenshots` still shoots all four.
 */
export const SCREEN_CHECKS = [
  { language: 'en', width: 1440, height: 900 },
  { language: 'ko', width: 375, height: 812 },
] as const;

/**
 * Shows the screen in a phone's window and runs axe on it (no serious or critical violation):
 * every spec whose screens have a phone layout calls it on the states it reaches. The window stays
 * at the phone's size unless `restore` asks for the previous one back (the flow goes on there).
 */
export async function expectAccessibleOnPhone(page: Page, { restore = false } = {}): Promise<void> {
  const previous = page.viewportSize();
  await page.setViewportSize(PHONE_VIEWPORT);
  await nextFrames(page);
  await expectNoSeriousA11yViolations(page);
  if (restore && previous) {
    await page.setViewportSize(previous);
    await nextFrames(page);
  }
}

/** The side navigation is a drawer at this width (a menu button in a top bar). */
export const isDrawerWidth = (width: number) => width < BREAKPOINTS_PX.sm;

export const menuButton = (page: Page) => page.getByTestId('nav-menu-button');

/**
 * The walks over every screen, each short enough for one test on a busy machine: signed out, a
 * member's, and the console's in two (its settings, then its members and credits).
 */
export const SCREEN_WALKS = ['signed out', 'member', 'console settings', 'console members'] as const;
export type ScreenWalk = (typeof SCREEN_WALKS)[number];

/** The screens each walk reaches (the drawers only below 768px). */
export const WALK_SCREENS: Record<ScreenWalk, { always: string[]; drawer: string[] }> = {
  'signed out': { always: ['sign-in', 'forgot-password', 'reset-password', 'sso-callback', 'invitation', 'sign-up', 'desktop-setup'], drawer: [] },
  member: {
    always: ['announcement-popup', 'new-chat', 'chat', 'shared-session', 'studio', 'store', 'developers', 'my-page', 'plans', 'credits', 'studio-editor'],
    drawer: ['nav-drawer'],
  },
  'console settings': {
    always: [
      'admin-announcements',
      'admin-announcement-editor',
      'admin-restricted-words',
      'admin-chatbots',
      'admin-models',
      'admin-sign-up',
      'admin-settings',
      'admin-sso',
      'admin-mcp-servers',
      'admin-audit-log',
    ],
    drawer: ['admin-nav-drawer'],
  },
  'console members': {
    always: [
      'admin-dashboard',
      'admin-credits',
      'admin-groups',
      'admin-invitations',
      'admin-sso-whitelist',
      'admin-members',
      'admin-requests',
      'admin-member-upload',
      'restricted',
    ],
    drawer: [],
  },
};

type OnScreen = (name: string, page: Page) => Promise<void>;

/**
 * Walks the screens of one part of the product, in the order a session allows, and calls
 * `onScreen` once each is ready. The member's walk shows the announcement popup once, right after
 * signing in. `page`'s context must be fresh.
 */
export async function visitScreens(page: Page, language: Language, walk: ScreenWalk, onScreen: OnScreen): Promise<void> {
  await page.addInitScript((lng) => {
    if (!localStorage.getItem('user-data')) localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 }));
  }, language);
  if (walk === 'signed out') await visitSignedOutScreens(page, onScreen);
  else if (walk === 'member') await visitMemberScreens(page, language, onScreen);
  else if (walk === 'console settings') await visitConsoleSettingsScreens(page, language, onScreen);
  else await visitConsoleMembersScreens(page, onScreen);
}

async function visitSignedOutScreens(page: Page, onScreen: OnScreen): Promise<void> {
  await page.goto('/auth');
  await expect(page.getByTestId('tenant-brand').getByRole('img')).toBeVisible();
  await onScreen('sign-in', page);
  // The signed-out password screens (a made-up token still shows the form).
  for (const [screen, path] of [
    ['forgot-password', '/auth/forgot'],
    ['reset-password', '/auth/reset/not-a-real-token'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('button[type="submit"]')).toBeVisible();
    await onScreen(screen, page);
  }
  // The SSO return page without a sign-in started in this tab: it says so, with the way back.
  await page.goto('/auth/sso/callback?code=x&state=not-started');
  await expect(page.getByRole('link', { name: /sign-in|로그인|登录|サインイン|inicio de sesión/i })).toBeVisible();
  await onScreen('sso-callback', page);
  // An invitation link that is not (or no longer) valid: it says so, with the way back.
  await page.goto('/auth/invitation/AAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByTestId('invitation-invalid')).toBeVisible();
  await onScreen('invitation', page);

  await page.goto('/auth/sign-up');
  await expect(page.getByTestId('sign-up-form')).toBeVisible();
  await onScreen('sign-up', page);

  const desktop = await page.context().newPage();
  await desktop.setViewportSize(page.viewportSize()!);
  await pretendDesktop(desktop);
  await desktop.goto('/setup');
  await expect(desktop.locator('form input').first()).toHaveValue(/^https:/);
  await onScreen('desktop-setup', desktop);
  await desktop.close();
}

async function visitMemberScreens(page: Page, language: Language, onScreen: OnScreen): Promise<void> {
  const names = NAMES[language];
  const width = page.viewportSize()?.width ?? 1280;
  await ensureActiveAnnouncement(page.request);
  await page.goto('/auth');
  await submitSignIn(page, ADMIN);
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.waitForTimeout(400); // the opening transition
  await onScreen('announcement-popup', page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await expect(page.getByTestId('chat-welcome')).toBeVisible();
  await onScreen('new-chat', page);

  if (isDrawerWidth(width)) {
    await menuButton(page).click();
    await expect(page.getByRole('link', { name: names.studio })).toBeVisible();
    await page.waitForTimeout(300); // the sliding transition
    await onScreen('nav-drawer', page);
    await page.keyboard.press('Escape');
  }

  const { chatbotId, hashId } = await createSession(page, language === 'ko' ? '스트리밍 답변 설명' : 'Streaming answers explained');
  await serveLongConversation(page);
  await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
  await expect(page.getByTestId('chatbot-message').locator('pre')).toBeVisible();
  await onScreen('chat', page);
  await page.unroute('**/history/**');

  // The public page of a shared session (it needs no sign-in; the admin sees it as anyone would).
  await setSessionPublic(page, hashId);
  await page.goto(`/share/${hashId}`);
  await expect(page.getByTestId('shared-session-creator')).toBeVisible();
  await expect(page.getByTestId('chatbot-message')).toBeVisible();
  await onScreen('shared-session', page);

  for (const screen of ['studio', 'store', 'developers', 'my-page', 'plans', 'credits']) {
    await openInApp(page, `/dashboard/${screen}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await onScreen(screen, page);
  }

  // A new chatbot opens the Studio editor with its test chat beside it (below on phones).
  await openInApp(page, '/dashboard/studio');
  await createChatbotInStudio(page, 'Screens');
  await expect(page.getByTestId('test-chat')).toBeVisible();
  await onScreen('studio-editor', page);
}

async function visitConsoleSettingsScreens(page: Page, language: Language, onScreen: OnScreen): Promise<void> {
  const names = NAMES[language];
  const width = page.viewportSize()?.width ?? 1280;
  await signInWithoutPopup(page, ADMIN);
  await page.goto('/admin/announcements');
  await expect(page.getByTestId('announcement-card').first()).toBeVisible();
  await onScreen('admin-announcements', page);
  if (isDrawerWidth(width)) {
    await menuButton(page).click();
    await expect(page.getByRole('navigation')).toBeVisible();
    await page.waitForTimeout(300);
    await onScreen('admin-nav-drawer', page);
    await page.keyboard.press('Escape');
  }
  await page.getByRole('button', { name: names.newAnnouncement }).click();
  await page.locator('.ProseMirror').click();
  await page.keyboard.type(
    language === 'ko' ? '서비스 점검 안내\n이번 주 일요일 02:00–03:00에 점검이 있습니다.' : 'Service maintenance\nThis Sunday from 02:00 to 03:00.',
  );
  await onScreen('admin-announcement-editor', page);
  await page.keyboard.press('Escape');

  await openInApp(page, '/admin/restricted-words');
  await expect(page.getByTestId('pii-phone')).toBeVisible();
  await onScreen('admin-restricted-words', page);

  await openInApp(page, '/admin/chatbots?status=all');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await onScreen('admin-chatbots', page);

  await openInApp(page, '/admin/models');
  await expect(page.getByTestId('model-matrix')).toBeVisible();
  await onScreen('admin-models', page);
  await openInApp(page, '/admin/sign-up');
  await expect(page.getByRole('radio').first()).toBeVisible();
  await onScreen('admin-sign-up', page);
  await openInApp(page, '/admin/settings');
  await expect(page.getByTestId('tenant-name-input')).toBeVisible();
  await expect(page.getByTestId('custom-fields')).toBeVisible();
  await onScreen('admin-settings', page);
  await openInApp(page, '/admin/sso');
  await expect(page.getByRole('button', { name: 'Add platform' })).toBeVisible();
  await onScreen('admin-sso', page);
  await openInApp(page, '/admin/mcp-servers');
  await expect(page.getByTestId('mcp-servers').or(page.getByTestId('mcp-servers-empty'))).toBeVisible();
  await onScreen('admin-mcp-servers', page);
  await openInApp(page, '/admin/audit-log');
  await expect(page.getByTestId('audit-row').first().or(page.getByTestId('audit-empty'))).toBeVisible();
  await onScreen('admin-audit-log', page);
}

async function visitConsoleMembersScreens(page: Page, onScreen: OnScreen): Promise<void> {
  await signInWithoutPopup(page, ADMIN);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('img').first()).toBeVisible();
  await onScreen('admin-dashboard', page);
  await openInApp(page, '/admin/credits');
  await expect(page.getByTestId('allocation-groups')).toBeVisible();
  await onScreen('admin-credits', page);
  await openInApp(page, '/admin/groups');
  await expect(page.getByTestId('admin-groups')).toBeVisible();
  await onScreen('admin-groups', page);
  await openInApp(page, '/admin/invitations');
  await expect(page.getByRole('button', { name: 'Invite members' })).toBeVisible();
  await onScreen('admin-invitations', page);
  await openInApp(page, '/admin/sso-whitelist');
  await expect(page.getByTestId('whitelist-text')).toBeVisible();
  await onScreen('admin-sso-whitelist', page);
  await openInApp(page, '/admin/members');
  await expect(page.getByTestId('members-table')).toBeVisible();
  await onScreen('admin-members', page);
  await openInApp(page, '/admin/requests');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await onScreen('admin-requests', page);
  await openInApp(page, '/admin/members/upload');
  await expect(page.getByTestId('upload-dropzone')).toBeVisible();
  await onScreen('admin-member-upload', page);

  await page.context().clearCookies();
  await signInWithoutPopup(page, MEMBER);
  await page.goto('/admin');
  await expect(page.getByTestId('restricted-page')).toBeVisible();
  await onScreen('restricted', page);
}

/** Signs in through the API (the refresh cookie lands in the page's context), the announcement popup skipped. */
async function signInWithoutPopup(page: Page, account: { email: string; password: string }): Promise<void> {
  await skipAnnouncementPopup(page);
  const response = await page.request.post('/api/v1/auth/sign-in/', { data: account });
  expect(response.ok(), `sign-in of ${account.email}`).toBe(true);
}

/**
 * What sticks out sideways: the page itself wider than the window, or any box that scrolls
 * sideways (code blocks and tables are meant to, inside their own frame: a box scrolling a table,
 * such as an admin list or the model matrix, is that frame).
 */
export function horizontalOverflow(page: Page): Promise<string[]> {
  return page.locator('html').evaluate((root) => {
    const problems: string[] = [];
    const view = root.ownerDocument.defaultView!;
    const windowWidth = view.innerWidth;
    if (root.scrollWidth > windowWidth) problems.push(`page is ${root.scrollWidth}px wide in a ${windowWidth}px window`);
    for (const element of root.querySelectorAll('body *')) {
      if (element.clientWidth === 0 || element.closest('pre, table')) continue;
      if (!/auto|scroll/.test(view.getComputedStyle(element).overflowX)) continue;
      // The table it holds is what is wider: its frame.
      const table = element.querySelector('table');
      if (table && table.getBoundingClientRect().width >= element.scrollWidth - 1) continue;
      if (element.scrollWidth > element.clientWidth + 1) {
        const classes = typeof element.className === 'string' ? element.className.trim().split(/\s+/).join('.') : '';
        problems.push(
          `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''} scrolls sideways: ${element.scrollWidth}px of content in ${element.clientWidth}px`,
        );
      }
    }
    return problems;
  });
}

/** The control is entirely inside the window, not cut off at either side. */
export async function expectInsideWindow(page: Page, control: Locator): Promise<void> {
  const box = await control.boundingBox();
  expect(box, 'control is rendered').not.toBeNull();
  const width = page.viewportSize()!.width;
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

/**
 * How much empty window is left below `lastContent` when everything is scrolled as far down as it
 * goes: the window itself and every box that scrolls on its own (the dashboard's main area). A page
 * that fits its content ends a margin below its last element.
 */
export async function blankBelowContent(page: Page, lastContent: Locator): Promise<number> {
  await page.locator('html').evaluate((root) => {
    for (const element of [root, ...root.querySelectorAll('body *')]) {
      if (element.scrollHeight > element.clientHeight) element.scrollTop = element.scrollHeight;
    }
    root.ownerDocument.defaultView!.scrollTo(0, root.scrollHeight);
  });
  const box = await lastContent.boundingBox();
  expect(box, 'last content is rendered').not.toBeNull();
  return page.viewportSize()!.height - (box!.y + box!.height);
}

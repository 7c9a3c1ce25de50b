import { expect, test, type Page } from '@playwright/test';
import { NAV_BAR_WIDTH_PX } from '../../src/shared/domain/ui';
import { ADMIN, createSession, nextFrames, skipAnnouncementPopup } from './support';
import { BREAKPOINTS, SCREEN_WALKS, WALK_SCREENS, expectInsideWindow, horizontalOverflow, isDrawerWidth, menuButton, visitScreens } from './screens';

/**
 * Phones and small windows: at every breakpoint of the spec no screen is wider than the window and
 * its main controls are on screen; below 768px the navigation is a drawer behind a menu button.
 */

/** The control a user needs on each screen, which must be fully on screen. */
const KEY_CONTROL: Record<string, (page: Page) => ReturnType<Page['locator']>> = {
  'sign-in': (page) => page.locator('button[type="submit"]'),
  'sign-up': (page) => page.getByTestId('sign-up-form').locator('button[type="submit"]'),
  'forgot-password': (page) => page.locator('button[type="submit"]'),
  'reset-password': (page) => page.locator('button[type="submit"]'),
  'announcement-popup': (page) => page.getByRole('dialog').getByRole('button').last(),
  'new-chat': (page) => page.getByTestId('send-button'),
  chat: (page) => page.getByTestId('send-button'),
  'shared-session': (page) => page.getByTestId('start-new-chat'),
  'nav-drawer': (page) => page.getByTestId('new-chat'),
  studio: (page) => page.getByRole('heading', { level: 1 }),
  store: (page) => page.getByRole('heading', { level: 1 }),
  developers: (page) => page.getByRole('heading', { level: 1 }),
  'studio-editor': (page) => page.getByTestId('save-chatbot'),
  'my-page': (page) => page.getByRole('heading', { level: 1 }),
  plans: (page) => page.locator('[data-testid^="plan-"][data-testid$="-action"]').last(),
  credits: (page) => page.getByRole('heading', { level: 1 }),
  'admin-dashboard': (page) => page.getByRole('button', { name: 'Download CSV' }),
  'admin-credits': (page) => page.getByRole('tab', { name: 'Purchase history' }),
  'admin-announcements': (page) => page.getByRole('button', { name: 'New announcement' }),
  'admin-chatbots': (page) => page.getByRole('textbox', { name: 'Search by name or key features' }),
  'admin-models': (page) => page.getByRole('heading', { level: 1 }),
  'admin-nav-drawer': (page) => page.getByRole('link', { name: 'Announcements' }),
  'admin-announcement-editor': (page) => page.getByRole('dialog').getByRole('button', { name: 'Create' }),
  'admin-restricted-words': (page) => page.getByRole('button', { name: 'Add' }),
  'admin-sign-up': (page) => page.locator('button[type="submit"]'),
  'admin-settings': (page) => page.getByTestId('add-custom-field'),
  'admin-sso': (page) => page.getByRole('button', { name: 'Add platform' }),
  'admin-mcp-servers': (page) => page.getByRole('button', { name: 'Add server' }),
  'admin-audit-log': (page) => page.getByRole('searchbox', { name: 'Search' }),
  'admin-groups': (page) => page.getByRole('button', { name: 'New group' }),
  'admin-invitations': (page) => page.getByRole('button', { name: 'Invite members' }),
  'admin-sso-whitelist': (page) => page.getByTestId('whitelist-add'),
  'admin-members': (page) => page.getByRole('searchbox', { name: 'Search members' }),
  'admin-requests': (page) => page.getByRole('searchbox', { name: 'Search by name or email' }),
  'admin-member-upload': (page) => page.getByRole('button', { name: 'Choose file' }),
  'sso-callback': (page) => page.getByRole('link', { name: 'Back to sign-in' }),
  invitation: (page) => page.getByRole('link', { name: 'Back to sign-in' }),
  restricted: (page) => page.getByTestId('restricted-page'),
  'desktop-setup': (page) => page.locator('button[type="submit"]'),
};

/** Below 768px the navigation is a drawer; its screens (the open drawers) exist only there. */
const DRAWER_WIDTHS = BREAKPOINTS.filter(isDrawerWidth);

/** Resizes the window and waits for the layout of the new width (media-query listeners render on the next frames). */
async function resizeTo(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await nextFrames(page);
}

/**
 * Each walk once, from a phone's width: every screen checked at every width by resizing the window
 * in place, then back to the phone's for the next step of the walk (a walk per width took four
 * minutes of the end-to-end suite, a walk per layout two).
 */
for (const walk of SCREEN_WALKS) {
  test(`every ${walk} screen fits each width (${BREAKPOINTS.join(', ')}px)`, async ({ page }) => {
    const [walkWidth] = DRAWER_WIDTHS;
    await page.setViewportSize({ width: walkWidth!, height: 800 });
    const visited: string[] = [];
    const { always, drawer } = WALK_SCREENS[walk];
    await visitScreens(page, 'en', walk, async (name, screen) => {
      visited.push(name);
      for (const width of drawer.includes(name) ? DRAWER_WIDTHS : BREAKPOINTS) {
        await resizeTo(screen, width);
        expect(await horizontalOverflow(screen), `${name} at ${width}px`).toEqual([]);
        await expectInsideWindow(screen, KEY_CONTROL[name]!(screen));
        if (name === 'chat' || name === 'new-chat') {
          // The composer gets the width of the window, not what a fixed side bar leaves of it.
          const room = Math.min(isDrawerWidth(width) ? width : width - NAV_BAR_WIDTH_PX, 820);
          const composer = await screen.getByTestId('composer-input').boundingBox();
          expect(composer!.width, `composer at ${width}px`).toBeGreaterThan(room * 0.6);
        }
      }
      await resizeTo(screen, walkWidth!);
    });
    expect(visited.toSorted()).toEqual([...always, ...drawer].toSorted());
    // The member ends on the restricted page, which has no navigation.
    if (walk === 'console members') await expect(menuButton(page)).toBeHidden();
  });
}

/** Signs in as the admin; on a phone the navigation (and its New chat link) starts hidden. */
async function signIn(page: Page) {
  await skipAnnouncementPopup(page);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('chat-welcome')).toBeVisible();
}

/** Where keyboard focus is: inside the navigation, on the menu button, or elsewhere. */
const focusPlace = (page: Page) =>
  page.locator('body').evaluate((body) => {
    const active = body.ownerDocument.activeElement;
    if (active?.closest('nav')) return 'nav';
    if (active?.closest('[data-testid="nav-menu-button"]')) return 'menu-button';
    return active?.tagName ?? 'none';
  });

test.describe('navigation drawer on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('opens from the menu button, keeps focus inside, closes with Esc, the backdrop and navigation', async ({ page }) => {
    await signIn(page);
    await createSession(page, 'Drawer trip');
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const button = page.getByRole('button', { name: 'Menu' });

    // Closed: out of sight and out of the tab order; the chat has the whole width.
    await expect(nav).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    await button.click();
    await expect(nav).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => focusPlace(page)).toBe('nav');
    // Tab and Shift+Tab go round the drawer's controls and never leave it.
    const seen = new Set<string>();
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      expect(await focusPlace(page)).toBe('nav');
      seen.add(await page.locator('body').evaluate((body) => body.ownerDocument.activeElement?.outerHTML ?? ''));
    }
    expect(seen.size).toBeGreaterThan(5);
    expect(seen.size).toBeLessThan(25); // it wrapped around
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusPlace(page)).toBe('nav');
    }

    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect.poll(() => focusPlace(page)).toBe('menu-button');

    // The backdrop beside the drawer closes it too.
    await button.click();
    await expect(nav).toBeVisible();
    await page.getByTestId('nav-backdrop').click({ position: { x: 360, y: 400 } });
    await expect(nav).toBeHidden();
    await expect.poll(() => focusPlace(page)).toBe('menu-button');

    // Choosing where to go closes it: Studio, a chat, New chat.
    await button.click();
    await nav.getByRole('link', { name: 'Studio' }).click();
    await expect(page).toHaveURL(/\/dashboard\/studio$/);
    await expect(nav).toBeHidden();

    await button.click();
    await nav.getByRole('link', { name: 'Drawer trip' }).click();
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);
    await expect(nav).toBeHidden();
    await expect(page.getByTestId('session-title')).toHaveText('Drawer trip');

    await button.click();
    await nav.getByTestId('new-chat').click();
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
    await expect(nav).toBeHidden();

    // The language menu opened from the drawer closes on Esc without closing the drawer.
    await button.click();
    await nav.getByTestId('language-menu').click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(nav).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
  });

  test('the admin console menu is a drawer too', async ({ page }) => {
    await signIn(page);
    await page.goto('/admin/announcements');
    const nav = page.getByRole('navigation', { name: 'Admin console menu' });
    const button = page.getByRole('button', { name: 'Menu' });
    await expect(nav).toBeHidden();

    await button.click();
    await expect(nav).toBeVisible();
    await expect.poll(() => focusPlace(page)).toBe('nav');
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await focusPlace(page)).toBe('nav');
    }
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect.poll(() => focusPlace(page)).toBe('menu-button');

    await button.click();
    await nav.getByRole('link', { name: 'Announcements' }).click();
    await expect(nav).toBeHidden();
  });

  test('a window widened past 768px shows the navigation beside the page, without the menu button', async ({ page }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav).toBeVisible();

    await page.setViewportSize({ width: 1040, height: 740 });
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await expect(nav).toBeVisible();
    await expect(page.getByTestId('nav-backdrop')).toHaveCount(0);
    // The page is usable beside it (nothing inert, nothing covering it).
    await page.getByTestId('composer-input').fill('Still typing');
    await expect(page.getByTestId('composer-input')).toHaveValue('Still typing');

    await page.setViewportSize({ width: 375, height: 740 });
    await expect(nav).toBeHidden(); // back to a closed drawer
  });
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('each chat in My chats shows its delete button without hovering', async ({ page }) => {
    await signIn(page);
    await createSession(page, 'Touch trip');
    await page.reload();
    await page.getByRole('button', { name: 'Menu' }).tap();
    const deleteButton = page.getByRole('button', { name: 'Delete “Touch trip”' });
    await expect(deleteButton).toBeVisible();
    await expect(deleteButton).toHaveCSS('opacity', '1');
  });
});

test('at 768px and wider the navigation sits beside the page', async ({ page }) => {
  for (const width of BREAKPOINTS.filter((w) => !isDrawerWidth(w))) {
    await page.setViewportSize({ width, height: 800 });
    if (width === 768) await signIn(page);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await expect(menuButton(page)).toBeHidden();
    const nav = await page.getByRole('navigation', { name: 'Main navigation' }).boundingBox();
    const composer = await page.getByTestId('composer-input').boundingBox();
    expect(composer!.x).toBeGreaterThanOrEqual(nav!.x + nav!.width);
  }
});

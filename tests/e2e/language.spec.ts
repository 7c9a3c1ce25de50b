import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

test('switching to Korean translates the app, survives a reload and is saved on the member', async ({ page }) => {
  await signIn(page, ADMIN);
  await page.getByTestId('language-menu').click();
  const saved = page.waitForResponse((response) => /\/members\/\d+\/$/.test(response.url()) && response.request().method() === 'PATCH');
  await page.getByRole('menuitem', { name: '한국어' }).click();
  expect((await saved).ok()).toBe(true);

  const nav = page.getByRole('navigation');
  await expect(nav.getByTestId('new-chat')).toHaveText('새 채팅');
  await expect(nav.getByText('내 채팅')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await expectAccessibleOnPhone(page, { restore: true });

  await page.reload();
  await expect(page.getByTestId('new-chat')).toHaveText('새 채팅');

  // The member record carries the choice too (signing in again reports it).
  const again = await page.request.post('/api/v1/auth/sign-in/', { data: ADMIN });
  expect(((await again.json()) as { member: { language: string } }).member.language).toBe('ko');
});

/** The page's computed font stack, the one its text is drawn with. */
const fontStack = (page: Page) => page.locator('body').evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).fontFamily);

test('each language names its own CJK system fonts in the font stack and on <html lang>, with no font of its own', async ({ page }) => {
  const expected = {
    ko: ['"Apple SD Gothic Neo"', '"Malgun Gothic"', '"Noto Sans CJK KR"'],
    ja: ['"Hiragino Sans"', '"Yu Gothic"', '"Noto Sans CJK JP"'],
    zh: ['"PingFang SC"', '"Microsoft YaHei"', '"Noto Sans CJK SC"'],
  } as const;
  for (const [language, fonts] of Object.entries(expected)) {
    await page.addInitScript((lng) => localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 })), language);
    await page.goto('/auth');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    // The theme's styles arrive with the app's first render.
    await expect.poll(() => fontStack(page)).toContain(fonts[0]);
    const stack = await fontStack(page);
    // Latin first, then the language's CJK fonts in order, then the generic family.
    const positions = fonts.map((font) => stack.indexOf(font));
    expect(positions.every((position) => position > stack.indexOf('system-ui')), `${language}: ${stack}`).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(stack.trim().endsWith('sans-serif')).toBe(true);
  }
  // The app loads no font file: the stack is made of the system's fonts only.
  expect(await page.evaluate('document.fonts.size')).toBe(0);
});


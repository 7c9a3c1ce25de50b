import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, nextFrames } from '../e2e/support';
import { PHONE_VIEWPORT } from '../e2e/screens';
import type { DesktopApp } from './harness/desktopApp';

const DESKTOP_VIEWPORT = { width: 1440, height: 900 };

/** The language the page shows, from the persisted user data (English unless chosen). */
const languageOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('user-data') ?? '{}') as { state?: { language?: string } }).state?.language ?? 'en');

/**
 * A screen reached: axe finds nothing serious at 1440 and 375 px, nothing on it reads like a stack
 * trace, and a screenshot of each width is kept (`<name>-<language>-<width>.png`). The window goes
 * back to the size it had.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  const previous = page.viewportSize();
  const language = await languageOf(page);
  for (const viewport of [DESKTOP_VIEWPORT, PHONE_VIEWPORT]) {
    await page.setViewportSize(viewport);
    await nextFrames(page);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: join(test.info().project.outputDir, `${name}-${language}-${viewport.width}.png`) });
  }
  await expect(page.locator('body')).not.toContainText(/\bat .+:\d+:\d+|TypeError|ReferenceError/);
  if (previous) await page.setViewportSize(previous);
}

/**
 * The tokens main holds appear nowhere the page can read: its storage, the app session's cookies,
 * what it shows, and every answer and event main sent it (bodies decoded as text).
 */
export async function expectTokensOutOfPage(page: Page, app: DesktopApp, tokens: string[]): Promise<void> {
  expect(tokens.length).toBeGreaterThan(0);
  // A page expression: this project has no DOM types.
  const pageSide = await page.evaluate<Record<string, string>>(
    '({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...sessionStorage }), cookie: document.cookie, text: document.documentElement.outerHTML })',
  );
  const cookies = JSON.stringify(await (await app.adapter.context()).cookies());
  const decode = (_key: string, value: unknown) => (value instanceof Uint8Array ? new TextDecoder().decode(value) : value);
  const bridge = JSON.stringify([app.adapter.answers, app.adapter.sent], decode);
  // The check itself would pass on empty logs: main answered the bridge and told it things by now.
  expect(app.adapter.answers.length).toBeGreaterThan(0);
  for (const token of tokens) {
    for (const [where, text] of Object.entries({ ...pageSide, cookies, bridge })) expect(text.includes(token), `a token in ${where}`).toBe(false);
  }
}

/** The window state main wrote for `kind` when its window closed. */
export function rememberedBounds(userData: string, kind: 'main' | 'admin'): { width: number; height: number } | undefined {
  try {
    return (JSON.parse(readFileSync(`${userData}/window-state.json`, 'utf8')) as Record<string, { width: number; height: number }>)[kind];
  } catch {
    return undefined;
  }
}

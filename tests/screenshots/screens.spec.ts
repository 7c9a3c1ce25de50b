import { test } from '@playwright/test';
import { visitScreens } from '../e2e/screens';

/**
 * Reference screenshots of every screen in English and Korean, on a phone (375px) and a large
 * desktop (1440px), written to screenshots/<screen>-<language>-<width>.png. Run with
 * `npm run screenshots`.
 */
const WIDTHS = { 375: 812, 1440: 900 } as const;

for (const language of ['en', 'ko'] as const) {
  for (const [width, height] of Object.entries(WIDTHS)) {
    test(`screens in ${language} at ${width}px`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: Number(width), height });
      await visitScreens(page, language, async (name, screen) => {
        await screen.screenshot({ path: `screenshots/${name}-${language}-${width}.png` });
      });
    });
  }
}

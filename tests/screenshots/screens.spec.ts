import { test } from '@playwright/test';
import { SCREEN_WALKS, visitScreens } from '../e2e/screens';

/**
 * Reference screenshots of every screen in English and Korean, on a phone (375px) and a large
 * desktop (1440px), written to screenshots/<screen>-<language>-<width>.png. Run with
 * `npm run screenshots`.
 */
const WIDTHS = { 375: 812, 1440: 900 } as const;

for (const language of ['en', 'ko'] as const) {
  for (const [width, height] of Object.entries(WIDTHS)) {
    for (const walk of SCREEN_WALKS) {
      test(`${walk} screens in ${language} at ${width}px`, async ({ page }) => {
        await page.setViewportSize({ width: Number(width), height });
        await visitScreens(page, language, walk, async (name, screen) => {
          await screen.screenshot({ path: `screenshots/${name}-${language}-${width}.png` });
        });
      });
    }
  }
}

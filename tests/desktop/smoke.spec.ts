import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startDesktopApp } from './harness/desktopApp';

test('smoke', async ({ browser }) => {
  const app = await startDesktopApp({ browser, userData: mkdtempSync(join(tmpdir(), 'desk-')), openExternal: async () => {}, workArea: { x: 0, y: 0, width: 1920, height: 1080 } });
  const page = await app.mainWindow();
  page.on('console', (m) => console.log('console', m.text()));
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.waitForTimeout(3000);
  console.log(page.url(), await page.locator('body').innerText());
  await page.screenshot({ path: 'test-results/desktop/smoke.png' });
  await app.quit();
});

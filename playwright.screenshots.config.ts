import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * Reference screenshots of every screen (en and ko, 375 and 1440px wide) and of the chat mid-stream,
 * written to screenshots/ for review; not part of `npm test`. The demo model is slowed so the mid-stream shot catches a partial answer.
 */
process.env.DEMO_TOKEN_DELAY_MS ??= '80';

export default defineConfig({
  ...base,
  testDir: 'tests/screenshots',
  // Not the base's two projects (their folders would replace this one).
  projects: [{ name: 'screenshots', testDir: 'tests/screenshots' }],
  webServer:
    base.webServer && !Array.isArray(base.webServer)
      ? { ...base.webServer, env: { ...base.webServer.env, DEMO_TOKEN_DELAY_MS: process.env.DEMO_TOKEN_DELAY_MS } }
      : base.webServer,
});

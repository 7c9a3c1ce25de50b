import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from './support';

/**
 * The built web client runs under the server's Content-Security-Policy without a single violation:
 * sign-in (tenant logo), a streamed chat answer (markdown, highlighted code), and the lazily loaded
 * admin console with its markdown editor.
 */
function collectViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  return violations;
}

test('the web client works under the CSP with no violation', async ({ page }) => {
  const violations = collectViolations(page);

  const document = await page.goto('/auth');
  const csp = document?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self';");
  // Video policies of the sign-up page play from their https URL (docs/decisions/0045-tenant-settings.md).
  expect(csp).toContain("media-src 'self' https:;");
  expect(document?.headers()['x-frame-options']).toBe('DENY');
  await expect(page.getByTestId('tenant-brand').getByRole('img')).toBeVisible();

  await signIn(page, ADMIN, { to: '/dashboard/chat' });
  await page.waitForURL(/\/dashboard\/chat\/\d+$/);
  const composer = page.getByTestId('composer-input');
  await composer.fill('Show me **bold** text and `code`');
  await composer.press('Enter');
  await expect(page.locator('[data-testid="chatbot-message"]:not([data-streaming])').last()).toContainText('restart the server', { timeout: 30_000 });

  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: 'New announcement' }).click();
  await page.getByRole('dialog', { name: 'New announcement' }).locator('.ProseMirror').click();
  await page.keyboard.type('Typed under the CSP');
  await expect(page.getByRole('dialog').locator('.ProseMirror')).toContainText('Typed under the CSP');

  expect(violations).toEqual([]);
});

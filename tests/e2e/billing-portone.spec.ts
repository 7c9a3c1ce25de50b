import { expect, test as base } from '@playwright/test';
import type { BuiltServer } from '../fixtures/builtServer';
import { type FakePortOne, startFakePortOne } from '../fixtures/fakePortOne';
import { ADMIN, expectNoSeriousA11yViolations, signIn, tenantCredits } from './support';
import { expectAccessibleOnPhone } from './screens';
import { startOwnServer } from './ownServer';

/**
 * The plans page with PortOne: a server of its own (the build `npm run server` made for the suite,
 * on a fresh database) whose PORTONE_API_BASE and PORTONE_SDK_URL point at the loopback fake, so the
 * page loads the fake SDK, which frames the fake card window; the server then checks and charges
 * the billing key at the fake. The suite's shared server stays on the demo provider.
 */
const test = base.extend<object, { portOne: { fake: FakePortOne; server: BuiltServer } }>({
  portOne: [
    async ({}, provide) => {
      const fake = await startFakePortOne();
      const { server, stop } = await startOwnServer('portone', {
        BILLING_RENEWAL_SWEEP_SECONDS: '0',
        PORTONE_API_SECRET: fake.apiSecret,
        PORTONE_STORE_ID: fake.storeId,
        PORTONE_CHANNEL_KEY: 'channel-key-e2e',
        PORTONE_API_BASE: fake.url,
        PORTONE_SDK_URL: fake.sdkUrl,
      });
      await provide({ fake, server });
      await stop();
      await fake.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ portOne }, provide) => provide(portOne.server.origin),
});

test('with PortOne an administrator registers a card in its window (a closed window charges nothing) and gets the plan and its credits', async ({
  page,
  request,
  portOne,
}) => {
  const { fake } = portOne;
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  const creditsBefore = await tenantCredits(request);
  await signIn(page, ADMIN);

  const document = await page.goto('/dashboard/plans');
  // The CSP names the SDK's origin for scripts and frames, and nothing else was loosened.
  const csp = document?.headers()['content-security-policy'] ?? '';
  const sdkOrigin = new URL(fake.sdkUrl).origin;
  expect(csp).toContain(`script-src 'self' ${sdkOrigin};`);
  expect(csp).toContain(`frame-src ${sdkOrigin} `);
  expect(csp).toContain("connect-src 'self';");
  await expect(page.getByRole('heading', { level: 1, name: 'Plans and billing' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Only registering a card loads PortOne's script.
  await expect(page.locator(`script[src="${fake.sdkUrl}"]`)).toHaveCount(0);

  const business = page.getByTestId(/^plan-\d+$/).filter({ hasText: 'Business' });
  await business.getByRole('button', { name: 'Subscribe' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay by card' });
  await expect(dialog).toContainText("PortOne's secure card window opens");
  await expect(dialog.getByLabel('Card number')).toHaveCount(0);
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/billing-portone-dialog.png', fullPage: true });

  // From the keyboard: the dialog's action has the focus; the card window is closed without a card.
  const open = dialog.getByRole('button', { name: 'Register card and pay ₩299,000' });
  await expect(open).toBeFocused();
  await page.keyboard.press('Enter');
  const cardWindow = page.frameLocator('iframe[title="PortOne"]');
  await cardWindow.getByRole('button', { name: 'Close' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'The card was not registered (the card window was closed or the card company refused it). Nothing was charged.',
  );
  await expect(page.locator('iframe[title="PortOne"]')).toHaveCount(0);
  await expect(open).toBeFocused();
  expect(fake.chargeRequests).toHaveLength(0);

  // Again, and this time the card is registered: the server checks the key at PortOne and charges it.
  await open.click();
  await cardWindow.getByRole('button', { name: 'Register card' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Subscribed to Business. Its credits have been added.')).toBeVisible();
  expect(fake.issueRequests.at(-1)).toMatchObject({
    storeId: fake.storeId,
    channelKey: 'channel-key-e2e',
    billingKeyMethod: 'CARD',
    currency: 'KRW',
    displayAmount: 299_000,
    customer: { email: ADMIN.email },
  });
  expect(fake.chargeRequests).toHaveLength(1);
  expect(fake.chargeRequests[0]!.body).toMatchObject({ storeId: fake.storeId, channelKey: 'channel-key-e2e', amount: { total: 299_000 } });

  const summary = page.getByTestId('membership-summary');
  await expect(summary).toContainText('Business');
  await expect(summary).toContainText('Active');
  await expect(summary).toContainText('94101234****123*');
  expect(await tenantCredits(request)).toBeCloseTo(creditsBefore + 400_000, 6);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/billing-portone-plans.png', fullPage: true });
  expect(violations).toEqual([]);
});

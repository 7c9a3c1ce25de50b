import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn, tenantCredits } from './support';
import { expectAccessibleOnPhone } from './screens';

test('an administrator subscribes with a test card, gets the credits and a receipt, cancels and resumes', async ({ page, request }) => {
  const creditsBefore = await tenantCredits(request);
  await signIn(page, ADMIN);

  // From My page's workspace section to the plans page.
  await page.goto('/dashboard/my-page');
  await page.getByTestId('workspace-plans-link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Plans and billing' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: 'test-results/billing-plans.png', fullPage: true });

  const business = page.getByTestId(/^plan-\d+$/).filter({ hasText: 'Business' });
  await expect(business).toContainText('₩299,000');
  const creditsLeft = page.getByTestId('credit-usage');
  const creditsLeftBefore = await creditsLeft.innerText();
  await business.getByRole('button', { name: 'Subscribe' }).click();

  // The decline test card is refused; the approved one pays.
  const dialog = page.getByRole('dialog', { name: 'Pay by card' });
  await dialog.getByLabel('Card number').fill('4000 0000 0000 0002');
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('Security code').fill('123');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: /Pay/ }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The card was declined. Please check it or use another card.');

  // Cancel, then another plan: the dialog opens empty, without the declined card or its error.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const otherPlan = page
    .getByTestId(/^plan-\d+$/)
    .filter({ hasNotText: 'Business' })
    .first();
  await otherPlan.getByRole('button', { name: 'Subscribe' }).click();
  await expect(dialog.getByLabel('Card number')).toHaveValue('');
  await expect(dialog.getByLabel('Expiry (MM/YY)')).toHaveValue('');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Typed as a member types: the number in groups of four, no digit past its length, "1234" as 12/34.
  await business.getByRole('button', { name: 'Subscribe' }).click();
  await dialog.getByLabel('Card number').pressSequentially('42424242424242429');
  await expect(dialog.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await dialog.getByLabel('Expiry (MM/YY)').pressSequentially('1234');
  await expect(dialog.getByLabel('Expiry (MM/YY)')).toHaveValue('12/34');
  await dialog.getByLabel('Security code').fill('123');
  await page.screenshot({ path: 'test-results/console/billing-card-form.png' });
  await dialog.getByRole('button', { name: /Pay/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Subscribed to Business. Its credits have been added.')).toBeVisible();

  const summary = page.getByTestId('membership-summary');
  await expect(summary).toContainText('Business');
  await expect(summary).toContainText('Visa **** **** **** 4242');
  expect(await tenantCredits(request)).toBeCloseTo(creditsBefore + 400_000, 6);
  // The navigation's credits left show the payment without a reload.
  await expect(creditsLeft).not.toHaveText(creditsLeftBefore);

  // Purchase history with the receipt.
  const history = page.getByTestId('payment-history');
  await expect(history).toContainText('400,000');
  const receiptLink = history.getByRole('link', { name: 'View receipt' }).first();
  const receipt = await request.get((await receiptLink.getAttribute('href'))!);
  expect(receipt.status()).toBe(200);
  expect(await receipt.text()).toContain('₩299,000');

  // Cancel (with its confirmation naming the end date), then resume.
  await page.getByTestId('membership-cancel').click();
  const confirm = page.getByRole('dialog', { name: 'Cancel membership?' });
  await expect(confirm).toContainText('Your membership ends on');
  await expectNoSeriousA11yViolations(page);
  await confirm.getByRole('button', { name: 'Cancel membership' }).click();
  await expect(page.getByTestId('membership-ends')).toBeVisible();
  await page.getByTestId('membership-resume').click();
  await expect(page.getByTestId('membership-cancel')).toBeVisible();
  await expect(summary).toContainText('Next payment on');

  await expectAccessibleOnPhone(page);
  await page.screenshot({ path: 'test-results/billing-plans-375.png', fullPage: true });
});

test("an organisation member sees the tenant's plan and is told to contact the administrator", async ({ page }) => {
  await signIn(page, MEMBER, { to: '/dashboard/plans' });
  await expect(page.getByTestId('contact-admin')).toContainText('contact your administrator');
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test('on a phone the purchase history scrolls sideways and the keyboard reaches it, also without a receipt link in it', async ({ page }) => {
  await signIn(page, ADMIN);
  const headers = await adminHeaders(page.request);
  const { items: plans } = (await (await page.request.get('/api/v1/member-billing-plans/', { headers })).json()) as { items: unknown[] };
  // A refused payment has no receipt: the table then holds nothing focusable of its own.
  const refused = {
    id: 1,
    kind: 'subscribe',
    status: 'failed',
    plan: plans[0],
    price: 29000,
    currency: 'KRW',
    credit: 0,
    usage_start_date: null,
    usage_end_date: null,
    receipt_url: null,
    failure_reason: 'card declined',
    created_at: new Date().toISOString(),
  };
  await page.route('**/membership/payments/**', (route) =>
    route.fulfill({ json: { items: [refused], total_items: 1, total_pages: 1, page: 1, page_size: 10 } }),
  );
  await page.goto('/dashboard/plans');
  const region = page.getByRole('region', { name: 'Purchase history' });
  await expect(region).toBeVisible();
  await expectAccessibleOnPhone(page);
  expect(await region.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
});

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';

const API = '/api/v1';
const ALL_OFF = { phone: 'off', email: 'off', resident_number: 'off', credit_card: 'off', international_phone: 'off' };

/** The specs share one server: each test sets what it needs and every test leaves all kinds off. */
async function setPii(request: APIRequestContext, settings: Record<string, string>): Promise<void> {
  const response = await request.patch(`${API}/admin/pii-settings/`, { headers: await adminHeaders(request), data: { ...ALL_OFF, ...settings } });
  expect(response.ok()).toBe(true);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
}

test.afterEach(async ({ request }) => setPii(request, {}));

test.describe('personal data in chat', () => {
  test('block: the composer warns, the send is refused with the spec message and nothing is stored', async ({ page, request }) => {
    await setPii(request, { phone: 'block' });
    await signIn(page, MEMBER);
    await page.getByTestId('composer-input').fill('Please call me at 010-1234-5678');
    await expect(page.getByTestId('pii-warning')).toHaveText('Your message contains a phone number. It will be blocked when you send it.');
    await expectNoSeriousA11yViolations(page);

    await page.getByTestId('composer-input').press('Enter');
    await expect(page.getByTestId('chat-error')).toContainText('The message was blocked because it contains personal information');
    await expectNoSeriousA11yViolations(page);
    // Not sent: no session was opened and the text is back in the box to be fixed.
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
    await expect(page.getByTestId('composer-input')).toHaveValue('Please call me at 010-1234-5678');
    await page.reload();
    await expect(page.getByTestId('member-message')).toHaveCount(0);
  });

  test('mask: the composer warns, the answer comes and the history shows the masked text', async ({ page, request }) => {
    await setPii(request, { email: 'mask' });
    await signIn(page, MEMBER);
    await page.getByTestId('composer-input').fill('Write to kim.minsu@example.com about the launch');
    await expect(page.getByTestId('pii-warning')).toHaveText('Your message contains an email address. It will be masked before it is sent.');
    await page.getByTestId('composer-input').press('Enter');

    const masked = 'Write to *********@example.com about the launch';
    await expect(page.getByTestId('member-message')).toHaveText(masked);
    await expect(page.getByTestId('chatbot-message').last()).not.toHaveAttribute('data-streaming');
    // A session hash is base64url: it may start with "-".
    await page.waitForURL(/\/dashboard\/chat\/\d+\/[\w-]+$/);
    await page.reload();
    await expect(page.getByTestId('member-message')).toHaveText(masked);
    await expect(page.getByText('kim.minsu@')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('mask: a masked phone number shows as written, in the message and where the answer quotes it', async ({ page, request }) => {
    await setPii(request, { phone: 'mask' });
    await signIn(page, MEMBER);
    await send(page, 'Please call me at 010-1234-5678 tomorrow');

    const masked = 'Please call me at ***-****-**** tomorrow';
    await expect(page.getByTestId('member-message')).toHaveText(masked);
    const answer = page.getByTestId('chatbot-message').last();
    await expect(answer).not.toHaveAttribute('data-streaming');
    // The demo answer quotes the message: the stars are text, not emphasis.
    await expect(answer).toContainText(`You wrote: “${masked}”`);
    await expect(answer.locator('p', { hasText: 'You wrote' }).locator('em, strong')).toHaveCount(0);
    await expect(page.getByText('010-1234-5678')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('an international number with its country code is masked by its own setting, the 11-digit phone left alone', async ({ page, request }) => {
    await setPii(request, { international_phone: 'mask' });
    await signIn(page, MEMBER);
    await page.getByTestId('composer-input').fill('Ring +44 20 7946 0958 or 010-1234-5678');
    await expect(page.getByTestId('pii-warning')).toHaveText('Your message contains an international phone number. It will be masked before it is sent.');
    await page.getByTestId('composer-input').press('Enter');
    await expect(page.getByTestId('member-message')).toHaveText('Ring +** ** **** **** or 010-1234-5678');
    await expect(page.getByTestId('chatbot-message').last()).not.toHaveAttribute('data-streaming');
    await expectNoSeriousA11yViolations(page);
  });

  test('a restricted word refuses the send with its own message', async ({ page, request }) => {
    const word = uniqueName('codename');
    const headers = await adminHeaders(request);
    const created = await request.post(`${API}/admin/restricted-words/`, { headers, data: { word } });
    expect(created.ok()).toBe(true);
    try {
      await signIn(page, MEMBER);
      await send(page, `What is ${word}?`);
      await expect(page.getByTestId('chat-error')).toContainText('The message contains a restricted term and was not sent.');
    } finally {
      await request.delete(`${API}/admin/restricted-words/${((await created.json()) as { id: number }).id}/`, { headers });
    }
  });
});

test.describe('admin restricted words and privacy page', () => {
  test('add, refuse a duplicate, search, delete a word, and change a PII setting', async ({ page }) => {
    await signIn(page, ADMIN, { to: '/admin/announcements' });
    await page.getByRole('link', { name: 'Restricted words & privacy' }).click();
    await expect(page).toHaveURL(/\/admin\/restricted-words/);
    await expect(page.getByRole('heading', { level: 1, name: 'Restricted words and privacy' })).toBeVisible();
    await expect(page.getByTestId('pii-phone')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const word = uniqueName('secret');
    const input = page.getByRole('textbox', { name: 'New restricted word' });
    await input.fill(word);
    await input.press('Enter');
    await expect(page.getByText('Restricted word added.')).toBeVisible();
    await expect(page.getByTestId('restricted-words').getByRole('cell', { name: word, exact: true })).toBeVisible();

    await input.fill(word.toUpperCase());
    await page.getByRole('button', { name: 'Add' }).click();
    await expect(page.getByText('This restricted word already exists.')).toBeVisible();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('searchbox', { name: 'Search words' }).fill(word.slice(-6));
    await expect(page).toHaveURL(new RegExp(`search=${word.slice(-6)}`));
    await expect(page.getByTestId('restricted-words').getByRole('row')).toHaveCount(2);

    await page.getByRole('button', { name: `Delete ${word}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this restricted word?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Restricted word deleted.')).toBeVisible();
    await expect(page.getByText('No words match your search.')).toBeVisible();
    // Back restores the list before the search.
    await page.goBack();
    await expect(page).not.toHaveURL(/search=/);

    const phone = page.getByRole('radiogroup', { name: 'Phone number (11 digits)' });
    await phone.getByText('Mask').click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Privacy settings saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('radiogroup', { name: 'Phone number (11 digits)' }).getByRole('radio', { name: 'Mask' })).toBeChecked();
    await page.getByRole('radiogroup', { name: 'Email address' }).getByText('Block').click();
    await expectNoSeriousA11yViolations(page);
  });

  test('the international phone number has its own Allow, Block and Mask', async ({ page }) => {
    await signIn(page, ADMIN);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/admin/restricted-words');
    const international = page.getByRole('radiogroup', { name: 'International phone number (+country code)' });
    await expect(international.getByRole('radio', { name: 'Allow' })).toBeChecked();
    await international.getByText('Block').click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Privacy settings saved.')).toBeVisible();
    await page.reload();
    await expect(international.getByRole('radio', { name: 'Block' })).toBeChecked();
    await expect(page.getByRole('radiogroup', { name: 'Phone number (11 digits)' }).getByRole('radio', { name: 'Allow' })).toBeChecked();
    await page.screenshot({ path: 'test-results/intl/privacy-en-1440.png', fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: 'test-results/intl/privacy-en-375.png', fullPage: true });
    await expectNoSeriousA11yViolations(page);
  });

  test('the international phone number setting speaks Korean', async ({ page, request }) => {
    await setPii(request, { international_phone: 'block' });
    await signIn(page, ADMIN);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: '한국어' }).click();
    try {
      await page.goto('/admin/restricted-words');
      await expect(page.getByRole('radiogroup', { name: '국제 전화번호(+국가 번호)' }).getByRole('radio', { name: '차단' })).toBeChecked();
      await page.screenshot({ path: 'test-results/intl/privacy-ko-1440.png', fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: 'test-results/intl/privacy-ko-375.png', fullPage: true });
      await expectNoSeriousA11yViolations(page);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto('/dashboard/chat');
      await page.getByTestId('language-menu').click();
      await page.getByRole('menuitem', { name: 'English' }).click();
    }
  });

  test('members see the restricted page', async ({ page }) => {
    await signIn(page, MEMBER, { to: '/admin/restricted-words' });
    await expect(page.getByTestId('restricted-page')).toHaveText('This is a restricted access page.');
    await expectNoSeriousA11yViolations(page);
  });
});

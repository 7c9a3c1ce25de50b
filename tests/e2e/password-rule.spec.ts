import { expect, test, type Page } from '@playwright/test';
import { ADMIN, expectNoSeriousA11yViolations, skipAnnouncementPopup } from './support';
import { SCREEN_CHECKS } from './screens';

/**
 * Issue 20: the tenant's minimum password length, set on the console's Settings screen and shown by
 * the password forms. Screenshots of the card and of the forms in English at 1440 px and Korean
 * at 375 px go to test-results/issue20-*.png (the reviewed copies are in screenshots/); axe finds nothing serious or critical on either screen.
 */
const TEXT = {
  en: {
    card: 'Password rule',
    field: 'Minimum password length',
    save: 'Save',
    saved: 'Password rule saved.',
    rule: 'At least 12 characters with letters, numbers and special characters.',
  },
  ko: {
    card: '비밀번호 규칙',
    field: '비밀번호 최소 길이',
    save: '저장',
    saved: '비밀번호 규칙을 저장했습니다.',
    rule: '영문, 숫자, 특수문자를 포함해 12자 이상이어야 합니다.',
  },
} as const;

async function signInAdmin(page: Page, language: 'en' | 'ko') {
  await page.addInitScript((lng) => {
    if (!localStorage.getItem('user-data')) localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 }));
  }, language);
  await skipAnnouncementPopup(page);
  await page.goto('/auth');
  await page.getByRole('textbox').first().fill(ADMIN.email);
  await page.locator('input[type="password"]').fill(ADMIN.password);
  await page.locator('button[type="submit"]').click();
  // At 375 px the navigation is a drawer: the chat page's address says the sign-in went through.
  await expect(page).toHaveURL(/\/dashboard\/chat/);
}

async function setMinimum(page: Page, language: 'en' | 'ko', value: number) {
  const text = TEXT[language];
  const card = page.getByRole('region', { name: text.card });
  const input = card.getByRole('textbox', { name: text.field });
  await input.fill(String(value));
  await card.getByRole('button', { name: text.save }).click();
  await expect(page.getByText(text.saved)).toBeVisible();
}

for (const { language, width, height } of SCREEN_CHECKS) {
  test(`password rule card and forms in ${language} at ${width}px`, async ({ page }) => {
    const text = TEXT[language];
    await page.setViewportSize({ width, height });
    await signInAdmin(page, language);
    await page.goto('/admin/settings');
    const card = page.getByRole('region', { name: text.card });
    await expect(card).toBeVisible();
    await setMinimum(page, language, 12);
    try {
      await card.scrollIntoViewIfNeeded();
      await expectNoSeriousA11yViolations(page);
      await card.screenshot({ path: `test-results/issue20-password-rule-card-${language}-${width}.png` });

      // My page's change-password form states the tenant's rule.
      await page.goto('/dashboard/my-page');
      const rule = page.getByText(text.rule);
      await expect(rule).toBeVisible();
      await rule.scrollIntoViewIfNeeded();
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `test-results/issue20-password-rule-my-page-${language}-${width}.png` });
    } finally {
      await page.goto('/admin/settings');
      await setMinimum(page, language, 8);
    }
  });
}

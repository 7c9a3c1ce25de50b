import { expect, test, type Page } from '@playwright/test';
import { ADMIN, createSession } from '../e2e/support';

/**
 * Reference screenshots of the main screens in English and Korean, written to screenshots/.
 * Run with `npm run screenshots`.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const languages = ['en', 'ko'] as const;

async function useLanguage(page: Page, language: (typeof languages)[number]) {
  await page.addInitScript((lng) => {
    localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 }));
  }, language);
}

for (const language of languages) {
  test(`screens in ${language}`, async ({ page }) => {
    await useLanguage(page, language);
    await page.goto('/auth');
    await expect(page.getByTestId('tenant-brand').getByRole('img')).toBeVisible();
    await page.screenshot({ path: `screenshots/sign-in-${language}.png` });

    await page.getByRole('textbox').first().fill(ADMIN.email);
    await page.locator('input[type="password"]').fill(ADMIN.password);
    await page.locator('button[type="submit"]').click();
    await expect(page.getByTestId('new-chat')).toBeVisible();
    // The seeded active announcement pops up over the dashboard after signing in.
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.waitForTimeout(400); // the opening transition
    await page.screenshot({ path: `screenshots/announcement-popup-${language}.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await createSession(page, language === 'ko' ? '제주 여행 계획' : 'Trip planning');
    const { chatbotId, hashId } = await createSession(page, language === 'ko' ? '분기 보고서 요약' : 'Quarterly report summary');
    await page.goto(`/dashboard/chat/${chatbotId}/${hashId}`);
    await expect(page.getByTestId('session-item').first()).toBeVisible();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `screenshots/dashboard-${language}.png` });

    await page.goto('/admin/announcements');
    await expect(page.getByTestId('announcement-card').first()).toBeVisible();
    await page.screenshot({ path: `screenshots/admin-announcements-${language}.png` });

    await page.getByRole('button', { name: language === 'ko' ? '새 공지사항' : 'New announcement' }).click();
    await page.locator('.ProseMirror').click();
    await page.keyboard.type(language === 'ko' ? '서비스 점검 안내\n이번 주 일요일 02:00–03:00에 점검이 있습니다.' : 'Service maintenance\nThis Sunday from 02:00 to 03:00.');
    await page.screenshot({ path: `screenshots/admin-announcement-editor-${language}.png` });
  });
}

import { expect, test, type Page } from '@playwright/test';
import { mailbox } from './mailbox';
import { ADMIN, adminHeaders, expectNoSeriousA11yViolations, signIn, skipAnnouncementPopup } from './support';

const PASSWORD = 'Signup!Kq2345';

/** The code of the newest verification mail to `email`, as the member would read it. */
async function mailedCode(email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const mail = (await mailbox({ limit: 20 })).find((entry) => entry.to === email && entry.template === 'verificationCode');
      code = mail?.text.match(/\b\d{6}\b/)?.[0];
      return code;
    })
    .toBeDefined();
  return code!;
}

async function fillDetails(page: Page, email: string) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await field('Name').fill('Grace Hopper');
  await field('Email').fill(email);
  await field('Password').fill(PASSWORD);
  await field('Confirm password').fill(PASSWORD);
  await field('Department').fill('Research');
}

/** Reads the demo's mandatory policy to its end (by scrolling) and agrees. */
async function agreeToTerms(page: Page) {
  await page.getByRole('button', { name: 'Read Terms of service' }).click();
  const dialog = page.getByRole('dialog', { name: 'Terms of service' });
  await dialog.getByRole('region').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await dialog.getByRole('button', { name: 'I agree' }).click();
}

test('sign up with an email code, wait for approval, then sign in', async ({ page }) => {
  const email = `grace-${Date.now()}@example.test`;
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page.getByTestId('sign-up-form')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Member group' })).toHaveValue('Default group');
  await expectNoSeriousA11yViolations(page);

  // The rules apply before anything is sent.
  await page.getByRole('button', { name: 'Send verification code' }).click();
  await expect(page.getByText('Department is required.')).toBeVisible();
  await expect(page.getByText('Please agree to our mandatory policies')).toBeVisible();

  await fillDetails(page, email);
  // The mandatory policy, by keyboard: open it, read to the end, agree.
  await expect(page.getByRole('checkbox', { name: /Terms of service/ })).toBeDisabled();
  await page.getByRole('button', { name: 'Read Terms of service' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Terms of service' });
  await expect(dialog.getByRole('button', { name: 'I agree' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('region').focus();
  await page.keyboard.press('End');
  await expect(dialog.getByRole('button', { name: 'I agree' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'I agree' }).click();
  await expect(page.getByRole('checkbox', { name: /Terms of service/ })).toBeChecked();

  await page.getByRole('button', { name: 'Send verification code' }).click();
  await expect(page.getByText(`We sent a verification code to ${email}.`)).toBeVisible();
  await expect(page.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('Verification code').fill(await mailedCode(email));
  const signUpAnswer = page.waitForResponse((response) => response.url().endsWith('/auth/sign-up/'));
  await page.getByRole('button', { name: 'Create account' }).click();
  const { member_id: memberId } = (await (await signUpAnswer).json()) as { member_id: number };
  await expect(page.getByTestId('sign-up-outcome')).toContainText('Request sent');
  await expectNoSeriousA11yViolations(page);

  // Not approved yet: sign-in says so.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('sign-in-error')).toHaveText('Your account has not been approved yet. Please contact your administrator.');

  // An administrator approves through the API (the requests screen: tests/e2e/admin-members.spec.ts).
  const headers = await adminHeaders(page.request);
  const approved = await page.request.post(`/api/v1/admin/members/${memberId}/process-pending-request/`, { headers, data: { approve: true } });
  expect(await approved.json()).toEqual({ member_status: 'approved', request_type: 'registration' });

  await skipAnnouncementPopup(page);
  await signIn(page, { email, password: PASSWORD });
});

test('with auto-approval the new member is welcomed, signed in and chatting', async ({ page }) => {
  const headers = await adminHeaders(page.request);
  const setApproval = async (approval: 'auto' | 'admin') => {
    expect((await page.request.patch('/api/v1/admin/sign-up-settings/', { headers, data: { approval } })).ok()).toBe(true);
    // Each server process reuses the tenant row for a few seconds (AUTH_CACHE_TTL_SECONDS).
    await expect
      .poll(async () => ((await (await page.request.get('/api/v1/tenants/sign-up-settings/')).json()) as { approval: string }).approval, { timeout: 15_000 })
      .toBe(approval);
  };
  await setApproval('auto');
  try {
    const email = `auto-${Date.now()}@example.test`;
    await skipAnnouncementPopup(page);
    await page.goto('/auth/sign-up');
    await fillDetails(page, email);
    await agreeToTerms(page);
    await page.getByRole('button', { name: 'Send verification code' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(email));
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId('sign-up-outcome')).toContainText('Welcome!');
    await expectNoSeriousA11yViolations(page);
    // The welcome mail went out too.
    await expect.poll(async () => (await mailbox({ limit: 20 })).some((mail) => mail.to === email && mail.template === 'memberRequestApproved')).toBe(true);
    await page.getByRole('button', { name: 'Start chatting' }).click();
    await expect(page.getByTestId('new-chat')).toBeVisible();
  } finally {
    await setApproval('admin');
  }
});

test('a wrong code is refused with its message and the form stays', async ({ page }) => {
  const email = `wrong-${Date.now()}@example.test`;
  await page.goto('/auth/sign-up');
  await fillDetails(page, email);
  await agreeToTerms(page);
  await page.getByRole('button', { name: 'Send verification code' }).click();
  const code = await mailedCode(email);
  await page.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByTestId('sign-up-error')).toHaveText('The verification code is incorrect.');
});

test('the sign-up page speaks the five languages', async ({ page }) => {
  const titles = { ko: '회원가입', en: 'Create your account', zh: '创建账户', ja: 'アカウント作成', es: 'Crea tu cuenta' };
  for (const [language, title] of Object.entries(titles)) {
    await page.addInitScript((lng) => localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: lng }, version: 0 })), language);
    await page.goto('/auth/sign-up');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByTestId('sign-up-form')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  }
});

test('an admin sees the sign-up settings in the console', async ({ page }) => {
  await signIn(page, ADMIN, { to: '/admin' });
  await page.getByRole('link', { name: 'Sign-up' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-up settings');
  await expect(page.getByRole('radio', { name: "Wait for an administrator's approval" })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Email' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
});

test('a number field says its rule under it and checks it while it is typed, before anything is sent', async ({ page }) => {
  await page.goto('/auth/sign-up');
  const employeeNumber = page.getByRole('textbox', { name: 'Employee number' });
  // The rule is the field's description, read out with it.
  await expect(employeeNumber).toHaveAccessibleDescription(/Numbers only, such as 1001 or 12\.5/);
  await employeeNumber.fill('E-1001');
  await expect(page.getByText('Employee number must be a number.')).toBeVisible();
  await expect(employeeNumber).toHaveAttribute('aria-invalid', 'true');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'test-results/intl/sign-up-number-en-1440.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await employeeNumber.fill('1001');
  await expect(page.getByText('Employee number must be a number.')).toHaveCount(0);
  await expect(employeeNumber).not.toHaveAttribute('aria-invalid', 'true');

  // The same in Korean, on a phone: the field by its Korean name (issue 21).
  await page.evaluate(() => localStorage.setItem('user-data', JSON.stringify({ state: { member: null, language: 'ko' }, version: 0 })));
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  const koNumber = page.getByRole('textbox', { name: '사번' });
  await expect(koNumber).toHaveAccessibleDescription(/숫자만 입력하세요/);
  await koNumber.fill('E-1001');
  await expect(page.getByText('사번은(는) 숫자여야 합니다.')).toBeVisible();
  await page.screenshot({ path: 'test-results/intl/sign-up-number-ko-375.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
});

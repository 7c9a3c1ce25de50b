import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { samplePng } from '../fixtures/sampleFiles';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';
import { SCREEN_CHECKS } from './screens';

/**
 * Admin console "Settings" (docs/decisions/0045-tenant-settings.md): branding on the sign-in page, a custom
 * field and a policy on the sign-up page, the field on My page. Every spec shares this server: the
 * names are unique, and what a test adds to the sign-up form or the branding is undone at its end.
 */
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/tenant-settings-${name}.png`, fullPage: true });

const API = '/api/v1';

/**
 * Runs `change` and then puts the tenant's name and manual link back for the other specs. The
 * uploaded logo stays: the seeded one (an SVG asset) cannot be uploaded back, and other specs expect
 * a logo named after the tenant on the sign-in page, which the restored name gives it.
 */
async function thenRestoreBranding(request: APIRequestContext, change: (headers: Record<string, string>) => Promise<void>): Promise<void> {
  const headers = await adminHeaders(request);
  const before = (await (await request.get(`${API}/admin/tenant-settings/`, { headers })).json()) as { tenant_name: string; manual_url: string | null };
  try {
    await change(headers);
  } finally {
    await request.patch(`${API}/admin/tenant-settings/`, { headers, data: { tenant_name: before.tenant_name, manual_url: before.manual_url } });
    // Each server process reuses the tenant row a few seconds (AUTH_CACHE_TTL_SECONDS): the next test must see the name back.
    await expect
      .poll(async () => ((await (await request.get(`${API}/tenants/`)).json()) as { tenant_name: string }).tenant_name, { timeout: 15_000 })
      .toBe(before.tenant_name);
  }
}

/**
 * Runs `check` with a required custom field (on the sign-up form, editable) and a mandatory markdown
 * policy made through the API as the console's dialogs make them, removed afterwards.
 */
async function withRequiredFieldAndPolicy(
  request: APIRequestContext,
  check: (names: { fieldName: string; policyName: string }) => Promise<void>,
): Promise<void> {
  const headers = await adminHeaders(request);
  const fieldName = uniqueName('Office');
  const policyName = uniqueName('Code of conduct');
  const created: string[] = [];
  const post = async (path: string, data: object) => {
    const response = await request.post(`${API}/admin/${path}/`, { headers, data });
    expect(response.ok()).toBe(true);
    created.push(`${API}/admin/${path}/${((await response.json()) as { id: number }).id}/`);
  };
  try {
    await post('custom-fields', { en_name: fieldName, is_required: true });
    await post('policies', { policy_name: policyName, kind: 'markdown', is_mandatory: true, markdown_content: `## ${policyName}\n\nBe kind to each other.` });
    await check({ fieldName, policyName });
  } finally {
    for (const path of created) await request.delete(path, { headers });
  }
}

test('an admin saves the branding (name, manual link, logo) in Settings; the navigation links Docs and the manual in a new tab', async ({ page }) => {
  await thenRestoreBranding(page.request, async () => {
    await signIn(page, ADMIN, { to: '/admin/announcements' });
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Workspace settings');
    await expect(page.getByTestId('custom-fields')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'console');

    const branding = page.getByRole('region', { name: 'Branding and support' });
    await branding.getByRole('textbox', { name: 'Workspace name' }).fill(uniqueName('Acme'));
    await branding.getByRole('textbox', { name: 'User manual link' }).fill('https://manual.example/guide');
    await branding.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await branding.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: samplePng() });
    await expect(page.getByText('Logo saved.')).toBeVisible();
    await expect(page.getByTestId('logo-preview').getByRole('img')).toBeVisible();

    // The member's navigation: Docs (the rendered API reference) and Manual open in a new tab.
    await page.goto('/dashboard/chat');
    await expect(page.getByTestId('nav-docs')).toHaveAttribute('href', /\/api\/v1\/docs\/\?lang=en$/);
    await expect(page.getByTestId('nav-manual')).toHaveAttribute('href', 'https://manual.example/guide');
    await expect(page.getByTestId('nav-manual')).toHaveAttribute('target', '_blank');
  });
});

test('an admin adds a required custom field by keyboard and a mandatory policy through their dialogs', async ({ page }) => {
  const fieldName = uniqueName('Office');
  const policyName = uniqueName('Code of conduct');
  const headers = await adminHeaders(page.request);
  try {
    await signIn(page, ADMIN, { to: '/admin/settings' });
    await expect(page.getByTestId('custom-fields')).toBeVisible();

    // A required, editable custom field, by keyboard through its dialog.
    await page.getByTestId('add-custom-field').click();
    const fieldDialog = page.getByRole('dialog', { name: 'New custom field' });
    // The Korean name comes first; an English one alone is enough.
    await expect(fieldDialog.getByRole('textbox', { name: 'Korean name' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(fieldDialog.getByRole('textbox', { name: 'English name' })).toBeFocused();
    await page.keyboard.type(fieldName);
    await fieldDialog.getByRole('checkbox', { name: /Required/ }).check();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'field-dialog');
    await fieldDialog.getByRole('textbox', { name: 'English name' }).press('Enter');
    await expect(page.getByText('Field added.')).toBeVisible();
    await expect(page.getByTestId('custom-fields').getByRole('cell', { name: fieldName, exact: true })).toBeVisible();

    // A mandatory markdown policy.
    await page.getByTestId('add-policy').click();
    const policyDialog = page.getByRole('dialog', { name: 'New policy' });
    await policyDialog.getByRole('textbox', { name: 'Policy name' }).fill(policyName);
    await policyDialog.getByTestId('policy-markdown-input').fill(`## ${policyName}\n\nBe kind to each other.`);
    await expect(policyDialog.getByRole('switch', { name: /Mandatory/ })).toBeChecked();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'policy-dialog');
    await policyDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Policy added.')).toBeVisible();
    await expect(page.getByTestId('policies').getByText(policyName)).toBeVisible();
    await shot(page, 'console-filled');

    // Made as the dialogs said: what the next tests make through the API.
    const fields = (await (await page.request.get(`${API}/admin/custom-fields/`, { headers })).json()) as {
      items: { field_name: string; is_required: boolean; is_signup_field: boolean; is_editable: boolean }[];
    };
    expect(fields.items.find((field) => field.field_name === fieldName)).toMatchObject({ is_required: true, is_signup_field: true, is_editable: true });
    const policies = (await (await page.request.get(`${API}/admin/policies/`, { headers })).json()) as {
      items: { policy_name: string; kind: string; is_mandatory: boolean }[];
    };
    expect(policies.items.find((policy) => policy.policy_name === policyName)).toMatchObject({ kind: 'markdown', is_mandatory: true });
  } finally {
    // Leave the sign-up form as it was for the other specs.
    const fields = (await (await page.request.get(`${API}/admin/custom-fields/`, { headers })).json()) as { items: { id: number; field_name: string }[] };
    for (const field of fields.items.filter((f) => f.field_name === fieldName))
      await page.request.delete(`${API}/admin/custom-fields/${field.id}/`, { headers });
    const policies = (await (await page.request.get(`${API}/admin/policies/`, { headers })).json()) as { items: { id: number; policy_name: string }[] };
    for (const policy of policies.items.filter((p) => p.policy_name === policyName))
      await page.request.delete(`${API}/admin/policies/${policy.id}/`, { headers });
  }
});

test('signed out, the sign-in page shows the uploaded logo named after the workspace, the name not written again', async ({ page }) => {
  await thenRestoreBranding(page.request, async (headers) => {
    const tenantName = uniqueName('Acme');
    expect((await page.request.patch(`${API}/admin/tenant-settings/`, { headers, data: { tenant_name: tenantName } })).ok()).toBe(true);
    const uploaded = await page.request.post(`${API}/admin/tenant-settings/logo/`, {
      headers,
      multipart: { files: { name: 'logo.png', mimeType: 'image/png', buffer: samplePng() } },
    });
    expect(uploaded.ok()).toBe(true);

    // Each server process keeps the tenant row a few seconds.
    await expect(async () => {
      await page.goto('/auth');
      await expect(page.getByTestId('tenant-brand').getByRole('img', { name: tenantName })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    // The logo says the name; it is not written again under it.
    await expect(page.getByTestId('tenant-name')).toHaveCount(0);
    const logo = page.getByTestId('tenant-brand').locator('img');
    await expect(logo).toBeVisible();
    // Loaded, not a broken image: the public logo route answered with the picture.
    await expect.poll(() => logo.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'sign-in');
  });
});

test('the sign-up page, reached from sign-in, asks for a new required field and a mandatory policy', async ({ page }) => {
  await withRequiredFieldAndPolicy(page.request, async ({ fieldName, policyName }) => {
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await expect(page.getByTestId('sign-up-form')).toBeVisible();
    await expect(page.getByRole('textbox', { name: fieldName })).toBeVisible();
    await expect(page.getByRole('button', { name: `Read ${policyName}` })).toBeVisible();
    await page.getByRole('button', { name: 'Send verification code' }).click();
    await expect(page.getByText(`${fieldName} is required.`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'sign-up');
  });
});

test('a member fills a new required field in on My page, and it is kept', async ({ page }) => {
  await withRequiredFieldAndPolicy(page.request, async ({ fieldName }) => {
    await signIn(page, MEMBER);
    await page.getByTestId('nav-my-page').click();
    await expect(page.getByRole('heading', { level: 2, name: 'Additional information' })).toBeVisible();
    const office = page.getByRole('textbox', { name: fieldName });
    await expect(office).toHaveValue('');
    // Every required editable field needs a value (the seeded Department too, when empty).
    const department = page.getByRole('textbox', { name: 'Department' });
    if ((await department.count()) > 0 && !(await department.inputValue())) await department.fill('Research');
    await office.fill('Seoul 12F');
    await page.getByTestId('custom-fields-save').click();
    await expect(page.getByText('Your information has been saved.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'my-page');
    await page.reload();
    await expect(page.getByRole('textbox', { name: fieldName })).toHaveValue('Seoul 12F');
  });
});

/** The editors of names in two languages, as the screenshots of this change show them (issue 21). */
const namesShot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `test-results/names/${name}.png`, fullPage });

interface OneLanguageNames {
  koreanField: string;
  englishField: string;
  koreanMode: string;
  englishMode: string;
}

/** Runs `check` with a custom field and a task mode named in Korean only and one of each in English only, removed afterwards. */
async function withOneLanguageNames(page: Page, check: (names: OneLanguageNames) => Promise<void>): Promise<void> {
  const headers = await adminHeaders(page.request);
  const names = { koreanField: uniqueName('직급'), englishField: uniqueName('Shift'), koreanMode: uniqueName('교정'), englishMode: uniqueName('Outline') };
  const created: string[] = [];
  const post = async (path: string, data: object) => {
    const response = await page.request.post(`/api/v1/admin/${path}/`, { headers, data });
    expect(response.ok()).toBe(true);
    created.push(`/api/v1/admin/${path}/${((await response.json()) as { id: number }).id}/`);
  };
  try {
    await post('custom-fields', { ko_name: names.koreanField });
    await post('custom-fields', { en_name: names.englishField });
    await post('task-modes', { ko_name: names.koreanMode, instructions: 'Task mode: proofreading.' });
    await post('task-modes', { en_name: names.englishMode, instructions: 'Task mode: outline.' });
    await check(names);
  } finally {
    for (const path of created) await page.request.delete(path, { headers });
  }
}

test('the sign-up form names a field in Korean only or in English only by that name in either language', async ({ page }) => {
  await withOneLanguageNames(page, async ({ koreanField, englishField }) => {
    await page.goto('/auth/sign-up');
    const form = page.getByTestId('sign-up-form');
    await expect(form.getByRole('textbox', { name: koreanField })).toBeVisible();
    await expect(form.getByRole('textbox', { name: englishField })).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Department' })).toBeVisible();
    await showInLanguage(page, 'ko');
    await expect(form.getByRole('textbox', { name: '부서' })).toBeVisible();
    await expect(form.getByRole('textbox', { name: koreanField })).toBeVisible();
    await expect(form.getByRole('textbox', { name: englishField })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

for (const { language, width } of SCREEN_CHECKS) {
  test(`the console's field and task mode editors in ${language} at ${width} px: each name in the interface language, else the other`, async ({ page }) => {
    await withOneLanguageNames(page, async ({ koreanField, englishField, koreanMode, englishMode }) => {
      await signIn(page, ADMIN);
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto('/admin/settings');
      await showInLanguage(page, language);
      const fields = page.getByTestId('custom-fields');
      const modes = page.getByTestId('task-modes');
      await expect(fields.getByText(language === 'ko' ? '부서' : 'Department', { exact: true })).toBeVisible();
      await expect(fields.getByText(koreanField, { exact: true })).toBeVisible();
      await expect(fields.getByText(englishField, { exact: true })).toBeVisible();
      await expect(modes.getByText(language === 'ko' ? '요약' : 'Summary', { exact: true })).toBeVisible();
      await expect(modes.getByText(koreanMode, { exact: true })).toBeVisible();
      await expect(modes.getByText(englishMode, { exact: true })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await namesShot(page, `settings-${language}-${width}`);
      await page.getByTestId('add-custom-field').click();
      const fieldDialog = page.getByRole('dialog');
      await fieldDialog.getByRole('button', { name: language === 'ko' ? '저장' : 'Save' }).click();
      await expect(fieldDialog.getByText(language === 'ko' ? '한국어 이름이나 영어 이름을 입력하세요.' : 'Enter a Korean or an English name.')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await namesShot(page, `field-dialog-${language}-${width}`, false);
      await page.keyboard.press('Escape');
      await expect(fieldDialog).toHaveCount(0);
      await modes.getByRole('button', { name: language === 'ko' ? `${englishMode} 수정` : `Edit ${englishMode}` }).click();
      const modeDialog = page.getByRole('dialog');
      await expect(modeDialog.getByRole('textbox', { name: language === 'ko' ? '영어 이름' : 'English name' })).toHaveValue(englishMode);
      await expectNoSeriousA11yViolations(page);
      await namesShot(page, `mode-dialog-${language}-${width}`, false);
    });
  });
}

import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

const REFUSED = 'You are not allowed to use this chatbot’s model. Please contact your administrator.';
const UNAVAILABLE = 'Your group may not use this chatbot’s model. Please contact your administrator.';

test('an admin switches a model off for a group: the member’s chat is refused with the spec message, then works again', async ({ browser, request }) => {
  const { items } = (await (await request.get('/api/v1/chatbots/?include_default=true&size=30', { headers: await adminHeaders(request) })).json()) as {
    items: { id: number; en_name: string }[];
  };
  const writingCoach = items.find((chatbot) => chatbot.en_name === 'Writing Coach')!;

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ADMIN);
  await admin.goto('/admin/models');
  await expect(admin.getByTestId('model-matrix')).toBeVisible();
  await expectAccessibleOnPhone(admin, { restore: true });
  await admin.screenshot({ path: 'test-results/models-matrix.png', fullPage: true });

  // The unlimited model is locked on, with the reason on screen.
  const unlimited = admin.getByRole('switch', { name: 'Default group may use Swift Lite (unlimited)' });
  await expect(unlimited).toBeChecked();
  await expect(unlimited).toBeDisabled();
  await expect(admin.getByText('The unlimited model stays available to every group, so members can always chat.')).toBeVisible();

  // The member has the chat open (from before the switch) with a message typed.
  const member = await (await browser.newContext()).newPage();
  await signIn(member, MEMBER);
  await member.goto(`/dashboard/chat/${writingCoach.id}`);
  const box = member.getByTestId('composer-input');
  await box.fill('Please check my essay');

  // From the keyboard: a switch takes Space.
  const deep = admin.getByRole('switch', { name: 'Default group may use Deep Reasoner' });
  await expect(deep).toBeChecked();
  await deep.focus();
  await admin.keyboard.press('Space');
  await expect(admin.getByText('Model no longer allowed for the group.')).toBeVisible();
  await expect(deep).not.toBeChecked();

  await member.getByTestId('send-button').click();
  await expect(member.getByText(REFUSED)).toBeVisible();
  // The text is given back to try again later.
  await expect(box).toHaveValue('Please check my essay');

  await deep.focus();
  await admin.keyboard.press('Space');
  await expect(admin.getByText('Model allowed for the group.')).toBeVisible();
  await member.getByTestId('send-button').click();
  await expect(member.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
  await expect(member.getByTestId('chatbot-message').last()).not.toBeEmpty();
  await admin.context().close();
  await member.context().close();
});

/** The contrast of a text with the white under it, with every ancestor's opacity applied to its colour. */
function contrastOnWhite(text: Locator): Promise<number> {
  return text.evaluate((element) => {
    const style = (node: typeof element) => node.ownerDocument.defaultView!.getComputedStyle(node);
    const [r, g, b, a = 1] = style(element)
      .color.match(/[\d.]+/g)!
      .map(Number);
    let alpha = a!;
    for (let node: typeof element | null = element; node; node = node.parentElement) alpha *= Number(style(node).opacity);
    const linear = (channel: number) => {
      const value = (channel * alpha + 255 * (1 - alpha)) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    };
    const luminance = 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    return 1.05 / (luminance + 0.05);
  });
}

test.describe('a chatbot whose model is off for the member’s group', () => {
  /** Switches Balanced Pro (the model of General Assistant and of the Store's Trip Planner) for the default group. */
  async function setBalancedPro(request: APIRequestContext, isAvailable: boolean) {
    const headers = await adminHeaders(request);
    const { models, groups } = (await (await request.get('/api/v1/admin/llm-models/', { headers })).json()) as {
      models: { id: number; name: string }[];
      groups: { id: number }[];
    };
    const pro = models.find((model) => model.name === 'balanced-pro')!;
    const response = await request.patch(`/api/v1/admin/llm-models/${pro.id}/member-groups/${groups[0]!.id}/`, {
      headers,
      data: { is_available: isAvailable },
    });
    expect(response.ok()).toBe(true);
  }

  test.beforeEach(({ request }) => setBalancedPro(request, false));
  test.afterEach(({ request }) => setBalancedPro(request, true));

  test('shows as unavailable with the reason in the Store, the switcher and its chat, where nothing can be sent', async ({ page, request }) => {
    await signIn(page, MEMBER, { to: '/dashboard/store' });
    const card = page.getByTestId('store-card').filter({ hasText: 'Trip Planner' }).first();
    await expect(card.getByTestId('model-unavailable-badge')).toHaveText('Unavailable');
    await expect(card).toContainText(UNAVAILABLE);
    await expectNoSeriousA11yViolations(page);
    await card.getByRole('button').first().click();
    await expect(page.getByTestId('store-detail').getByTestId('model-unavailable')).toHaveText(UNAVAILABLE);
    await expect(page.getByTestId('start-chat')).toBeDisabled();
    await expectAccessibleOnPhone(page, { restore: true });
    await page.keyboard.press('Escape');

    // The chat without a chatbot passes over General Assistant (same model, the first default
    // chatbot) and opens the first default chatbot the member may use.
    await page.goto('/dashboard/chat');
    await expect(page).toHaveURL(/\/dashboard\/chat\/\d+$/);
    await expect(page.getByTestId('chatbot-name')).toHaveText('Quick Helper');

    // General Assistant's own chat says why and offers no send.
    const { items } = (await (await request.get('/api/v1/chatbots/?include_default=true', { headers: await adminHeaders(request, MEMBER) })).json()) as {
      items: { id: number; en_name: string }[];
    };
    await page.goto(`/dashboard/chat/${items.find((chatbot) => chatbot.en_name === 'General Assistant')!.id}`);
    await expect(page.getByTestId('chatbot-name')).toHaveText('General Assistant');
    await expect(page.getByTestId('model-unavailable')).toHaveText(UNAVAILABLE);
    await expect(page.getByTestId('composer-input')).toBeDisabled();
    await expect(page.getByTestId('send-button')).toBeDisabled();
    await expectAccessibleOnPhone(page, { restore: true });

    // In the switcher it is marked, with the reason, and cannot be chosen; the others can.
    await page.getByTestId('chatbot-switcher').click();
    const option = (name: string) => page.getByRole('option', { name: new RegExp(`^${name}`) });
    await expect(option('General Assistant')).toContainText(UNAVAILABLE);
    await expect(option('General Assistant')).toHaveAttribute('aria-disabled', 'true');
    await expect(option('Quick Helper')).not.toHaveAttribute('aria-disabled', 'true');
    await expectNoSeriousA11yViolations(page);
    // axe passes over disabled options: the reason must still be readable (not faded, 4.5:1).
    expect(await contrastOnWhite(option('General Assistant').getByText(UNAVAILABLE))).toBeGreaterThanOrEqual(4.5);
    await page.screenshot({ path: 'test-results/console/switcher-unavailable-en-1440.png' });
    await option('Quick Helper').click();
    await expect(page.getByTestId('chatbot-name')).toHaveText('Quick Helper');
    await expect(page.getByTestId('model-unavailable')).toHaveCount(0);
    await expect(page.getByTestId('composer-input')).toBeEnabled();
  });
});

import { expect, test } from '@playwright/test';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';

const REFUSED = 'You are not allowed to use this chatbot’s model. Please contact your administrator.';

test('an admin switches a model off for a group: the member’s chat is refused with the spec message, then works again', async ({ browser, request }) => {
  const { items } = (await (await request.get('/api/v1/chatbots/?include_default=true&size=30', { headers: await adminHeaders(request) })).json()) as {
    items: { id: number; en_name: string }[];
  };
  const writingCoach = items.find((chatbot) => chatbot.en_name === 'Writing Coach')!;

  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, ADMIN);
  await admin.goto('/admin/models');
  await expect(admin.getByTestId('model-matrix')).toBeVisible();
  await expectNoSeriousA11yViolations(admin);
  await admin.screenshot({ path: 'test-results/models-matrix.png', fullPage: true });

  // The unlimited model is locked on, with the reason on screen.
  const unlimited = admin.getByRole('switch', { name: 'Default group may use Swift Lite (unlimited)' });
  await expect(unlimited).toBeChecked();
  await expect(unlimited).toBeDisabled();
  await expect(admin.getByText('The unlimited model stays available to every group, so members can always chat.')).toBeVisible();

  // From the keyboard: a switch takes Space.
  const deep = admin.getByRole('switch', { name: 'Default group may use Deep Reasoner' });
  await expect(deep).toBeChecked();
  await deep.focus();
  await admin.keyboard.press('Space');
  await expect(admin.getByText('Model no longer allowed for the group.')).toBeVisible();
  await expect(deep).not.toBeChecked();

  const member = await (await browser.newContext()).newPage();
  await signIn(member, MEMBER);
  await member.goto(`/dashboard/chat/${writingCoach.id}`);
  const box = member.getByTestId('composer-input');
  await box.fill('Please check my essay');
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

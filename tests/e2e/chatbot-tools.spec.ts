import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectAccessibleOnPhone } from './screens';
import { ADMIN, MEMBER, adminHeaders, createChatbotInStudio, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';

/**
 * A chatbot's tools (issue 24): the Studio's picker offers the demo MCP server's tools (started
 * with the e2e server, switched on for the default group), and the chat shows a call as a step.
 */

const toolsSection = (page: Page) => page.getByRole('region', { name: 'Tools' });

test('an author gives a chatbot the demo clock in the Studio; it is kept after a reload', async ({ page }) => {
  await signIn(page, MEMBER);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/dashboard/studio');
  await createChatbotInStudio(page, uniqueName('Clock helper'));

  const section = toolsSection(page);
  const clock = section.getByRole('checkbox', { name: /current_time/ });
  await expect(clock).not.toBeChecked();
  await expect(section.getByRole('checkbox', { name: /convert_units/ })).toBeVisible();
  await expect(clock).toHaveAccessibleDescription(/^From Demo tools · /);
  await expect(section.getByRole('textbox', { name: 'Tool steps per answer' })).toHaveValue('5');
  await expectNoSeriousA11yViolations(page);

  // From the keyboard: Space ticks it; the step limit is typed.
  await clock.focus();
  await page.keyboard.press('Space');
  await expect(clock).toBeChecked();
  const steps = section.getByRole('textbox', { name: 'Tool steps per answer' });
  await steps.fill('3');
  await page.getByTestId('save-chatbot').click();
  await expect(page.getByText('Chatbot saved.')).toBeVisible();
  await expect(page.getByTestId('save-chatbot')).toBeDisabled();
  await page.screenshot({ path: 'test-results/tools/studio-tools-en-1440.png' });

  await page.reload();
  await expect(toolsSection(page).getByRole('checkbox', { name: /current_time/ })).toBeChecked();
  await expect(toolsSection(page).getByRole('checkbox', { name: /convert_units/ })).not.toBeChecked();
  await expect(toolsSection(page).getByRole('textbox', { name: 'Tool steps per answer' })).toHaveValue('3');

  // Korean, on a phone: the same section, readable and accessible.
  await showInLanguage(page, 'ko');
  const korean = page.getByRole('region', { name: '도구' });
  await expect(korean.getByRole('checkbox', { name: /current_time/ })).toBeChecked();
  await expect(korean.getByRole('checkbox', { name: /current_time/ })).toHaveAccessibleDescription(/^Demo tools 제공 · /);
  await korean.scrollIntoViewIfNeeded();
  await expectAccessibleOnPhone(page);
  const overflow = await page.locator('html').evaluate((root) => root.scrollWidth - root.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/tools/studio-tools-ko-375.png' });
  await showInLanguage(page, 'en');
});

test("an admin reaches a default chatbot's tools from the console's Default chatbots page", async ({ page }) => {
  await signIn(page, ADMIN);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/admin/default-chatbots');
  await page.getByTestId('default-chatbot-row').first().getByTestId('edit-default-chatbot').click();
  // The Studio's editor, with every enabled tool of the workspace to pick.
  const section = toolsSection(page);
  await expect(section.getByRole('checkbox', { name: /current_time/ })).toBeVisible();
  await expect(section.getByRole('checkbox', { name: /convert_units/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to default chatbots' })).toBeVisible();
});

/** The default chatbot members start with, and the demo clock's id, as an admin sees them. */
async function firstDefaultChatbot(request: APIRequestContext) {
  const headers = await adminHeaders(request, ADMIN);
  const chatbots = (await (await request.get('/api/v1/chatbots/?include_default=true', { headers })).json()) as {
    items: { id: number; is_default: boolean; tool_ids: number[] }[];
  };
  const tools = (await (await request.get('/api/v1/tools/', { headers })).json()) as { items: { id: number; name: string; server_name: string }[] };
  const clock = tools.items.find((tool) => tool.name === 'current_time' && tool.server_name === 'Demo tools')!;
  return { headers, chatbot: chatbots.items.find((chatbot) => chatbot.is_default)!, clock };
}

// Needs the chat's tool loop (the server side of issue 24's chat, built beside this): the demo model
// calls the demo clock when asked for the time.
test('asking the default chatbot for the time shows the clock as a step of the answer', async ({ page, request }) => {
  const { headers, chatbot, clock } = await firstDefaultChatbot(request);
  const before = chatbot.tool_ids;
  expect((await request.patch(`/api/v1/chatbots/${chatbot.id}/`, { headers, data: { tool_ids: [...new Set([...before, clock.id])] } })).ok()).toBe(true);
  try {
    await signIn(page, MEMBER);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/dashboard/chat/${chatbot.id}`);
    const box = page.getByTestId('composer-input');
    await box.fill('What time is it now?');
    await box.press('Enter');

    const answer = page.getByTestId('chatbot-message').last();
    const step = answer.getByRole('button', { name: 'Used current_time' });
    await expect(step).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 20_000 });
    await expect(step).toHaveAttribute('aria-expanded', 'false');
    await step.focus();
    await page.keyboard.press('Enter');
    await expect(step).toHaveAttribute('aria-expanded', 'true');
    await expect(answer.getByTestId('tool-step-result')).not.toBeEmpty();
    await expectNoSeriousA11yViolations(page);

    // Kept with the answer: the history shows it again.
    await page.reload();
    await expect(page.getByTestId('chatbot-message').last().getByRole('button', { name: 'Used current_time' })).toBeVisible();
    await expectAccessibleOnPhone(page);
  } finally {
    // The specs share one server: the other specs' answers come without tools.
    expect((await request.patch(`/api/v1/chatbots/${chatbot.id}/`, { headers, data: { tool_ids: before } })).ok()).toBe(true);
  }
});

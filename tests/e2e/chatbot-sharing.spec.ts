import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { mailbox } from './mailbox';
import { MEMBER, adminHeaders, createChatbotInStudio, createChatbotThroughApi, expectNoSeriousA11yViolations, signIn, uniqueName } from './support';
import { expectAccessibleOnPhone } from './screens';

/**
 * Issue 9's group visibility, end to end: the author shares a chatbot with one member group in the
 * Studio; a member of that group chats with it at once, a member of another group finds the
 * chatbot unavailable, and taking the group away makes it unavailable to its member too. Each test
 * makes its own group and members through the API.
 */
const API = '/api/v1';
const PASSWORD = 'Shared!2345';

/** An invited person who joined through the API with the mailed temporary password. */
async function joinedMember(
  request: APIRequestContext,
  headers: Record<string, string>,
  name: string,
  groupId?: number,
): Promise<{ email: string; password: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.test`;
  const invited = await request.post(`${API}/admin/invitations/bulk/`, {
    headers,
    data: { members: [{ email, name, ...(groupId ? { member_group_id: groupId } : {}) }] },
  });
  expect((await invited.json()).results).toEqual([expect.objectContaining({ email, result: 'invited' })]);
  let text = '';
  await expect
    .poll(async () => {
      text = (await mailbox({ limit: 50 })).find((mail) => mail.to === email && mail.template === 'invitation')?.text ?? '';
      return text;
    })
    .not.toBe('');
  const hash = /\/auth\/invitation\/([\w-]+)/.exec(text)![1]!;
  const temporary = text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line))!;
  const { items: policies } = (await (await request.get(`${API}/policies/`)).json()) as { items: { id: number }[] };
  const agreements = policies.map((policy) => policy.id);
  const accepted = await request.post(`${API}/invitations/${hash}/accept/`, {
    data: { email, name, password: PASSWORD, agreements, temporary_password: temporary },
  });
  expect(accepted.ok()).toBe(true);
  return { email, password: PASSWORD };
}

async function signedInPage(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  return page;
}

/** A new member group and a member invited into it, who has joined. */
async function groupWithMember(
  request: APIRequestContext,
  headers: Record<string, string>,
): Promise<{ groupId: number; groupName: string; reader: { email: string; password: string } }> {
  const groupName = uniqueName('Readers');
  const group = await request.post(`${API}/admin/member-groups/`, { headers, data: { ko_name: `${groupName} 팀`, en_name: groupName } });
  expect(group.ok()).toBe(true);
  const groupId = ((await group.json()) as { id: number }).id;
  return { groupId, groupName, reader: await joinedMember(request, headers, 'Rita Reader', groupId) };
}

/** The member's chatbot, shared with the group through the API as the Studio's access dialog does. */
async function chatbotSharedWith(request: APIRequestContext, groupId: number, name: string): Promise<number> {
  const chatbotId = await createChatbotThroughApi(request, MEMBER, { en_name: name, ko_name: '열람실' });
  const shared = await request.patch(`${API}/chatbots/${chatbotId}/access/`, {
    headers: await adminHeaders(request, MEMBER),
    data: { is_public: false, member_group_ids: [groupId] },
  });
  expect(shared.ok()).toBe(true);
  return chatbotId;
}

test('a chatbot shared with a group in the Studio is usable by the group’s members at once', async ({ page, browser, request }) => {
  const { groupName, reader } = await groupWithMember(request, await adminHeaders(request));

  // The author builds and shares the chatbot with the group in the Studio.
  const botName = uniqueName('Reading room');
  await signIn(page, MEMBER, { to: '/dashboard/studio' });
  await createChatbotInStudio(page, botName);
  const chatbotId = Number(new URL(page.url()).pathname.split('/').at(-1));
  await page.getByTestId('en-name').fill(botName);
  await page.getByTestId('ko-name').fill('열람실');
  await page.getByTestId('save-chatbot').click();
  await expect(page.getByText('Chatbot saved.')).toBeVisible();
  await page.getByTestId('open-access').click();
  const dialog = page.getByRole('dialog', { name: 'Who can use this chatbot' });
  await dialog.getByText('Member groups', { exact: true }).click();
  await dialog.getByTestId('access-group-select').click();
  await page.getByRole('option', { name: groupName }).click();
  await page.keyboard.press('Escape');
  await dialog.getByTestId('access-save').click();
  await expect(page.getByText('Access saved.')).toBeVisible();
  await expect(page.getByTestId('chatbot-status').first()).toHaveText('Shared with groups');

  // A member of the group chats with it at once.
  const readerPage = await signedInPage(browser, reader);
  await readerPage.goto(`/dashboard/chat/${chatbotId}`);
  await expect(readerPage.getByTestId('chatbot-unavailable')).toHaveCount(0);
  await readerPage.getByTestId('composer-input').fill('Is the reading room open?');
  await readerPage.getByTestId('composer-input').press('Enter');
  await expect(readerPage.getByTestId('chatbot-message').last()).toBeVisible();
  await expect(readerPage.locator('[data-testid="chatbot-message"][data-streaming]')).toHaveCount(0, { timeout: 30_000 });
  await expectNoSeriousA11yViolations(readerPage);
  await readerPage.context().close();
});

test('a chatbot shared with a group is not there for a member of another group, by link or in the Store', async ({ page, request }) => {
  const headers = await adminHeaders(request);
  const { groupId } = await groupWithMember(request, headers);
  const botName = uniqueName('Reading room');
  const chatbotId = await chatbotSharedWith(request, groupId, botName);
  const outsider = await joinedMember(request, headers, 'Otto Outsider');

  await signIn(page, outsider, { to: `/dashboard/chat/${chatbotId}` });
  await expect(page.getByTestId('chatbot-unavailable')).toBeVisible();
  await expectAccessibleOnPhone(page, { restore: true });
  await page.goto(`/dashboard/store?search=${encodeURIComponent(botName)}`);
  await expect(page.getByText(botName)).toHaveCount(0);
});

test('once the author takes the group away in the Studio, the chatbot is unavailable to the group’s member', async ({ page, browser, request }) => {
  const { groupId, reader } = await groupWithMember(request, await adminHeaders(request));
  const chatbotId = await chatbotSharedWith(request, groupId, uniqueName('Reading room'));
  const readerPage = await signedInPage(browser, reader);
  await readerPage.goto(`/dashboard/chat/${chatbotId}`);
  await expect(readerPage.getByTestId('composer-input')).toBeVisible();
  await expect(readerPage.getByTestId('chatbot-unavailable')).toHaveCount(0);

  await signIn(page, MEMBER, { to: `/dashboard/studio/${chatbotId}` });
  await expect(page.getByTestId('chatbot-status').first()).toHaveText('Shared with groups');
  await page.getByTestId('open-access').click();
  await page.getByRole('dialog', { name: 'Who can use this chatbot' }).getByText('Only me', { exact: true }).click();
  await page.getByRole('dialog', { name: 'Who can use this chatbot' }).getByTestId('access-save').click();
  await expect(page.getByTestId('chatbot-status').first()).toHaveText('Private');
  await readerPage.reload();
  await expect(readerPage.getByTestId('chatbot-unavailable')).toBeVisible();
  await readerPage.context().close();
});

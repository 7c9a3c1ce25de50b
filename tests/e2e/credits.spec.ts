import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

const API = '/api/v1';

interface Usage {
  usage: number;
  limited_by: string | null;
  average_message_cost: number | null;
  message_count: number;
}

let memberId: number;
let memberHeaders: Record<string, string>;
let paidChatbot: number;
let lowTierChatbot: number;

async function setCreditQuota(request: APIRequestContext, creditQuota: number | null) {
  const response = await request.patch(`${API}/admin/members/bulk/`, {
    headers: await adminHeaders(request),
    data: { member_ids: [memberId], credit_quota: creditQuota },
  });
  expect(response.ok()).toBe(true);
}

async function memberUsage(request: APIRequestContext): Promise<Usage> {
  const response = await request.get(`${API}/members/${memberId}/usage/`, { headers: memberHeaders });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Usage;
}

test.beforeAll(async ({ request }) => {
  const signedIn = await request.post(`${API}/auth/sign-in/`, { data: MEMBER, headers: { 'x-client-kind': 'desktop' } });
  expect(signedIn.ok()).toBe(true);
  const body = (await signedIn.json()) as { access_token: string; member: { id: number } };
  memberId = body.member.id;
  memberHeaders = { 'x-access-token': body.access_token };
  const list = (await (await request.get(`${API}/chatbots/?include_default=true&size=30`, { headers: memberHeaders })).json()) as {
    items: { id: number; en_name: string; is_default: boolean; llm_model: { is_low_llm: boolean; is_unlimited: boolean } }[];
  };
  paidChatbot = list.items.find((bot) => bot.en_name === 'General Assistant')!.id;
  lowTierChatbot = list.items.find((bot) => bot.is_default && bot.llm_model.is_low_llm && bot.llm_model.is_unlimited)!.id;
});

test.afterAll(async ({ request }) => {
  await setCreditQuota(request, null);
});

test('a member who has used 80 % of their credits sees the warning above the composer and the figures in the navigation', async ({ page, request }) => {
  // 50 paid answers at the same cost, then a quota leaving 24 % of what they used: 80.6 % used and
  // about 12 messages left, so the 80 % warning is the one that applies (not "about 10 left").
  const sends = await Promise.all(
    Array.from({ length: 50 }, () =>
      request.post(`${API}/chatbots/${paidChatbot}/chat/`, { headers: memberHeaders, data: { text: 'How many credits does this use?' } }),
    ),
  );
  for (const sent of sends) {
    expect(sent.status()).toBe(200);
    await sent.body();
  }
  const before = await memberUsage(request);
  expect(before.message_count).toBeGreaterThanOrEqual(50);
  await setCreditQuota(request, before.usage * 1.24);

  await signIn(page, MEMBER, { to: `/dashboard/chat/${paidChatbot}` });
  const warning = page.getByTestId('credit-warning');
  await expect(warning).toHaveAttribute('data-warning', 'used_80');
  await expect(warning).toContainText('You have used 80% of your credits');
  await expect(warning).toContainText('Ask your administrator');
  await expect(page.getByTestId('credit-usage')).toContainText('Credits');
  await expectNoSeriousA11yViolations(page);

  // Dismissed, it stays away for the rest of the month.
  await warning.getByRole('button', { name: 'Dismiss' }).click();
  await expect(warning).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('composer-input')).toBeVisible();
  await expect(page.getByTestId('credit-usage')).toBeVisible();
  await expect(page.getByTestId('credit-warning')).toHaveCount(0);
});

test('a depleted member is told so, New chat leads to the low-tier chatbot, which still answers', async ({ page, request }) => {
  await setCreditQuota(request, 0);
  await signIn(page, MEMBER, { to: `/dashboard/chat/${paidChatbot}` });

  const depleted = page.getByTestId('credit-depleted');
  await expect(depleted).toContainText('Your monthly credit allocation is used up.');
  await expect(depleted).toContainText('Ask your administrator');
  await expect(page.getByTestId('new-chat')).toHaveAttribute('href', `/dashboard/chat/${lowTierChatbot}`);
  await expectAccessibleOnPhone(page, { restore: true });

  // A send on the paid chatbot is refused with the same message, and the text comes back.
  await page.getByTestId('composer-input').fill('Can I still ask?');
  await page.getByTestId('composer-input').press('Enter');
  await expect(page.getByTestId('chat-error')).toContainText('Your monthly credit allocation is used up.');
  await expect(page.getByTestId('composer-input')).toHaveValue('Can I still ask?');

  await page.getByTestId('credit-low-tier-link').click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/chat/${lowTierChatbot}$`));
  await expect(page.getByTestId('credit-free-model')).toBeVisible();
  await page.getByTestId('composer-input').fill('Hello from a depleted member');
  await page.getByTestId('composer-input').press('Enter');
  await expect(page.getByTestId('chatbot-message').last()).toContainText('restart the server', { timeout: 20_000 });
  await expect(page.getByTestId('chat-error')).toHaveCount(0);
  await expectAccessibleOnPhone(page);
});

test('on a phone the credits page puts this month’s figures and its warning at the page’s margin', async ({ page, request }) => {
  await setCreditQuota(request, 0);
  await signIn(page, MEMBER);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/dashboard/credits');
  const warning = page.getByTestId('credits-state');
  await expect(warning).toHaveAttribute('data-state', 'depleted');
  const left = async (locator: Locator) => (await locator.boundingBox())!.x;
  const margin = await left(page.getByRole('heading', { level: 1, name: 'Credits' }));
  // The figures line up with the heading; the warning's text is in by its own padding only.
  expect(await left(page.getByTestId('credits-used'))).toBe(margin);
  expect(await left(warning)).toBe(margin);
  expect(await left(warning.getByText('Your monthly credit allocation is used up.'))).toBeLessThanOrEqual(margin + 20);
  await expectNoSeriousA11yViolations(page);
});

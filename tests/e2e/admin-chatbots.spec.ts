import { expect, test, type APIRequestContext } from '@playwright/test';
import { mailbox } from './mailbox';
import { ADMIN, MEMBER, adminHeaders, expectNoSeriousA11yViolations, signIn } from './support';
import { expectAccessibleOnPhone } from './screens';

/** A member's chatbot asking to be published, made through the API as the Studio would. */
async function publishRequest(request: APIRequestContext, name: string): Promise<number> {
  const headers = await adminHeaders(request, MEMBER);
  const { id } = (await (await request.post('/api/v1/chatbots/', { headers })).json()) as { id: number };
  await request.patch(`/api/v1/chatbots/${id}/`, { headers, data: { en_name: name, ko_name: name, en_key_features: 'Plans trips' } });
  expect((await request.patch(`/api/v1/chatbots/${id}/access/`, { headers, data: { is_public: true, member_group_ids: [] } })).ok()).toBe(true);
  return id;
}

test('an admin rejects a publish request with a reason, the author sees it, asks again, and the admin approves it', async ({ page, request, browser }) => {
  const name = `Trip Planner ${Date.now()}`;
  const id = await publishRequest(request, name);

  await signIn(page, ADMIN, { to: '/admin/chatbots' });
  const row = page.getByTestId('admin-chatbot-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await row.getByRole('button', { name: `Review ${name}` }).click();
  const drawer = page.getByRole('dialog', { name });
  await expect(drawer.getByText('Plans trips')).toBeVisible();
  await expectAccessibleOnPhone(page, { restore: true });
  await page.screenshot({ path: 'test-results/admin-chatbots-drawer.png' });

  // Rejecting needs a reason.
  await drawer.getByTestId('reject').click();
  await page.getByTestId('confirm-reject').click();
  await expect(page.getByText('Please provide a reason for the requester.')).toBeVisible();
  await page.getByTestId('reject-reason').fill('Say which sources the plans come from.');
  await page.getByTestId('confirm-reject').click();
  await expect(page.getByText('Rejected: the author was told why.')).toBeVisible();
  await expect(row).toHaveCount(0); // no longer waiting
  // The author is mailed the reason.
  await expect
    .poll(
      async () =>
        (await mailbox({ limit: 50 })).find((mail) => mail.to === MEMBER.email && mail.template === 'chatbotPublishRejected' && mail.text.includes(name))
          ?.text ?? '',
    )
    .toContain('Say which sources the plans come from.');

  // The author sees the admin's feedback in the Studio.
  const author = await (await browser.newContext()).newPage();
  await signIn(author, MEMBER);
  await author.goto('/dashboard/studio');
  await expect(author.getByText('Say which sources the plans come from.')).toBeVisible();
  await author.context().close();

  // Asked again; the admin approves it from the list, with the keyboard.
  const headers = await adminHeaders(request, MEMBER);
  await request.patch(`/api/v1/chatbots/${id}/access/`, { headers, data: { is_public: true, member_group_ids: [] } });
  await page.reload();
  await row.getByRole('checkbox', { name: `Select ${name}` }).check();
  await page.getByRole('button', { name: 'Approve selected' }).press('Enter');
  await expect(page.getByText('Approved: the chatbot is now public in the Store.')).toBeVisible();
  await page.getByText('Approved', { exact: true }).click();
  await expect(page).toHaveURL(/status=approved/);
  await expect(page.getByTestId('admin-chatbot-row').filter({ hasText: name })).toBeVisible();
  await page.screenshot({ path: 'test-results/admin-chatbots-list.png' });

  const store = (await (await request.get('/api/v1/chatbots/?is_public=true&size=100', { headers })).json()) as { items: { id: number }[] };
  expect(store.items.map((item) => item.id)).toContain(id);
});

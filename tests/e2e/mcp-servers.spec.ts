import { expect, test } from '@playwright/test';
import { type FixtureMcpServer, startFixtureMcpServer } from '../fixtures/mcpServer';
import { ADMIN, adminHeaders, animationsSettled, expectNoSeriousA11yViolations, showInLanguage, signIn, uniqueName } from './support';
import { freePort } from '../fixtures/ports';
import { expectAccessibleOnPhone } from './screens';

let fixture: FixtureMcpServer;
test.beforeAll(async () => {
  fixture = await startFixtureMcpServer({ tools: ['lookup', 'translate'], bearer: 'e2e-secret' });
});
test.afterAll(() => fixture?.close());

test('an admin adds an MCP server, sees its tools and gives one to a group; the demo server is there already', async ({ page, request }) => {
  const name = uniqueName('Fixture tools');
  await signIn(page, ADMIN, { to: '/admin/mcp-servers' });
  await expect(page.getByRole('heading', { level: 1, name: 'MCP servers' })).toBeVisible();
  // The demo tenant's own server, started with the server, its two tools on for the default group.
  const demo = page.getByTestId('mcp-server-row').filter({ hasText: 'Demo tools' });
  await expect(demo.getByRole('button', { name: 'Tools of Demo tools' })).toHaveText('2 of 2 on');
  await expect(demo.getByText('Connected')).toBeVisible();

  // Add a server (from the keyboard: the dialog opens with the name field focused).
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an MCP server' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.type(name);
  await dialog.getByLabel('Address (streamable HTTP)').fill(fixture.url);
  await dialog.getByLabel('Secret', { exact: true }).click();
  await page.getByRole('option', { name: 'Bearer token (Authorization header)' }).click();
  await dialog.getByLabel('Secret value').fill('e2e-secret');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Save and list tools' }).click();
  await expect(page.getByText('Saved. The server lists 2 tools.')).toBeVisible();
  const row = page.getByTestId('mcp-server-row').filter({ hasText: name });
  await expect(row.getByRole('button', { name: `Tools of ${name}` })).toHaveText('0 of 2 on');

  // The secret is write-only: editing shows it is saved, never what it is.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit MCP server' });
  await expect(edit.getByLabel('Secret value')).toHaveValue('');
  await expect(edit.getByLabel('Secret value')).toHaveAttribute('placeholder', 'Saved; type to replace');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Its tools: switch one on from the keyboard and give it to the default group.
  await row.getByRole('button', { name: `Tools of ${name}` }).click();
  const drawer = page.getByRole('dialog', { name: `Tools of ${name}` });
  const lookup = drawer.locator('[data-testid="mcp-tool"][data-name="lookup"]');
  await expect(lookup.getByText('The lookup tool')).toBeVisible();
  const enabled = lookup.getByRole('switch', { name: 'On: lookup' });
  await expect(enabled).not.toBeChecked();
  await enabled.focus();
  await page.keyboard.press('Space');
  await expect(enabled).toBeChecked();
  await lookup.getByLabel('Member groups that may use it').click();
  await page.getByRole('option', { name: 'Default group' }).click();
  await expect(lookup.getByText('Default group')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/tools-en-1440.png' });
  await expectAccessibleOnPhone(page);
  await page.screenshot({ path: 'test-results/mcp/tools-en-375.png' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.keyboard.press('Escape');
  await expect(row.getByRole('button', { name: `Tools of ${name}` })).toHaveText('1 of 2 on');

  // Saved on the server: on, for the default group only.
  const headers = await adminHeaders(request);
  const servers = (await (await request.get('/api/v1/admin/mcp-servers/?size=50', { headers })).json()) as { items: { id: number; name: string }[] };
  const id = servers.items.find((server) => server.name === name)!.id;
  const tools = (await (await request.get(`/api/v1/admin/mcp-servers/${id}/tools/`, { headers })).json()) as {
    items: { name: string; is_enabled: boolean; member_group_ids: number[] }[];
    groups: { id: number; is_default: boolean }[];
  };
  const defaultGroup = tools.groups.find((group) => group.is_default)!.id;
  expect(tools.items.map((tool) => [tool.name, tool.is_enabled, tool.member_group_ids])).toEqual([
    ['lookup', true, [defaultGroup]],
    ['translate', false, []],
  ]);

  // A server nothing answers at is saved with its error, which the list says.
  const broken = uniqueName('Broken tools');
  const failed = await request.post('/api/v1/admin/mcp-servers/', { headers, data: { name: broken, url: `http://127.0.0.1:${await freePort()}/mcp` } });
  expect(failed.status()).toBe(424);
  const brokenId = ((await failed.json()) as { details: { mcp_server_id: number } }).details.mcp_server_id;
  await page.reload();
  const brokenRow = page.getByTestId('mcp-server-row').filter({ hasText: broken });
  await expect(brokenRow.getByText('Connection failed')).toBeVisible();
  await expect(brokenRow.getByText('Nothing answers at this address.')).toBeVisible();

  // The list at both widths, in both languages.
  await expectNoSeriousA11yViolations(page);
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/list-en-1440.png', fullPage: true });
  await expectAccessibleOnPhone(page, { restore: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/list-en-375.png', fullPage: true });
  await showInLanguage(page, 'ko');
  await expect(page.getByRole('heading', { level: 1, name: 'MCP 서버' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/list-ko-375.png', fullPage: true });
  await page
    .getByTestId('mcp-server-row')
    .filter({ hasText: name })
    .getByRole('button', { name: `${name}의 도구` })
    .click();
  await expect(page.getByRole('switch', { name: '켜기: lookup' })).toBeChecked();
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/tools-ko-375.png' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/tools-ko-1440.png' });
  await page.keyboard.press('Escape');
  await animationsSettled(page);
  await page.screenshot({ path: 'test-results/mcp/list-ko-1440.png', fullPage: true });
  await showInLanguage(page, 'en');

  for (const server of [id, brokenId]) await request.delete(`/api/v1/admin/mcp-servers/${server}/`, { headers });
});

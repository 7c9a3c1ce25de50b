import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminMcpServer } from '../../../../../shared/api';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import McpServersPage from './McpServersPage';

afterEach(() => setPlatformForTests(null));

const server = (id: number, name: string, extra: Partial<AdminMcpServer> = {}): AdminMcpServer => ({
  id,
  name,
  url: `https://tools.example.com/${id}/mcp`,
  description: '',
  secret_kind: 'none',
  secret_header_name: '',
  has_secret: false,
  tool_count: 2,
  enabled_tool_count: 1,
  last_connected_at: '2026-11-26T10:00:00.000Z',
  last_error: null,
  ...extra,
});

describe('MCP servers page', () => {
  it('checks the header name before sending, and keeps a saved secret unless one is typed', async () => {
    const saved = server(1, 'Search', { secret_kind: 'bearer', has_secret: true });
    const api = installFakeApi({
      'GET /admin/mcp-servers/': () => Response.json(page([saved])),
      'PUT /admin/mcp-servers/1/': async (request) => Response.json({ ...saved, ...((await request.json()) as object) }),
    });
    renderScreen(<McpServersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Search' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit MCP server' });
    const secret = within(dialog).getByLabelText('Secret value');
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('placeholder', 'Saved; type to replace');

    await userEvent.click(within(dialog).getByLabelText('Secret', { exact: true, selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Header of your choice' }));
    await userEvent.type(within(dialog).getByLabelText(/Header name/), 'Content-Type');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and list tools' }));
    expect(await within(dialog).findByText('Enter a header name (letters, digits and dashes), not one the connection sets itself.')).toBeVisible();
    expect(api.find('PUT', '/admin/mcp-servers/1/')).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText(/Header name/));
    await userEvent.type(within(dialog).getByLabelText(/Header name/), 'X-Api-Key');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and list tools' }));
    await waitFor(() => expect(api.find('PUT', '/admin/mcp-servers/1/')).toHaveLength(1));
    expect(await api.find('PUT', '/admin/mcp-servers/1/')[0]!.json()).toMatchObject({ secret_kind: 'header', secret_header_name: 'X-Api-Key', secret: '' });
  });

  it('closes the dialog when the server was saved but could not connect, and the list says why', async () => {
    let servers: AdminMcpServer[] = [];
    installFakeApi({
      'GET /admin/mcp-servers/': () => Response.json(page(servers)),
      'POST /admin/mcp-servers/': () => {
        servers = [
          server(7, 'Down', {
            tool_count: 0,
            enabled_tool_count: 0,
            last_connected_at: null,
            last_error: { code: 'mcp_timeout', message: 'No answer within 10 s.', at: '2026-11-26T10:00:00.000Z' },
          }),
        ];
        return Response.json({ code: 'mcp_timeout', message: 'No answer within 10 s.', details: { mcp_server_id: 7 } }, { status: 424 });
      },
    });
    renderScreen(<McpServersPage />);
    expect(await screen.findByTestId('mcp-servers-empty')).toHaveTextContent('No MCP servers yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an MCP server' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Down');
    await userEvent.type(within(dialog).getByLabelText(/^Address/), 'https://down.example.com/mcp');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and list tools' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add an MCP server' })).toBeNull());
    const row = await screen.findByTestId('mcp-server-row');
    expect(within(row).getByText('Connection failed')).toBeVisible();
    expect(within(row).getByText('The server did not answer in time.')).toBeVisible();
  });
});

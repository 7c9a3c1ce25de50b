import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPlatformForTests } from '../../platform';
import { createDesktopPlatform } from '../../platform/desktop';
import { fakeBridge } from '../../test/fakeBridge';
import { renderScreen } from '../../test/render';
import ServerSetupPage from './ServerSetupPage';
import { reloadApp } from './reloadApp';

vi.mock('./reloadApp', () => ({ reloadApp: vi.fn() }));

const settings = { apiBase: 'http://localhost:3000/api/v1', subdomain: null, configured: false };
const tenant = { subdomain: 'acme', tenant_name: 'Acme', logo_url: null, plan: { is_low_llm_free: false } };

function installDesktop(tenantStatus: number) {
  const fake = fakeBridge({
    'settings:get': () => ({ ok: true, value: settings }),
    'settings:set': (patch) => ({ ok: true, value: { ...settings, ...(patch as object), configured: true } }),
    'http:fetch': () => ({
      ok: true,
      value: {
        status: tenantStatus,
        statusText: '',
        headers: [['content-type', 'application/json']],
        body: new TextEncoder().encode(JSON.stringify(tenantStatus === 200 ? tenant : { code: 'not_found', message: 'No such tenant' })),
      },
    }),
  });
  setPlatformForTests(createDesktopPlatform(fake.bridge));
  return fake;
}

afterEach(() => {
  setPlatformForTests(null);
  vi.mocked(reloadApp).mockClear();
});

describe('desktop server setup', () => {
  it('shows the current server and refuses an address that is not http(s)', async () => {
    const { calls } = installDesktop(200);
    renderScreen(<ServerSetupPage />);
    const address = await screen.findByDisplayValue('http://localhost:3000/api/v1');
    await userEvent.clear(address);
    await userEvent.type(address, 'ftp://files.internal/api');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Enter an http or https address without a user name, query or fragment.')).toBeInTheDocument();
    expect(calls['settings:set']).toBeUndefined();
  });

  it('refuses plain http to another machine and says why, but accepts it for this computer', async () => {
    const { calls } = installDesktop(200);
    renderScreen(<ServerSetupPage />);
    const address = await screen.findByDisplayValue('http://localhost:3000/api/v1');
    await userEvent.clear(address);
    await userEvent.type(address, 'http://chat.acme.test/api/v1');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText(/Use an https address/)).toBeInTheDocument();
    expect(calls['settings:set']).toBeUndefined();

    await userEvent.clear(address);
    await userEvent.type(address, 'http://127.0.0.1:3000/api/v1');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(reloadApp).toHaveBeenCalled());
    expect(calls['settings:set']).toEqual([{ apiBase: 'http://127.0.0.1:3000/api/v1', subdomain: null }]);
  });

  it('saves server and workspace, checks the server answers for it and reloads into the app', async () => {
    const { calls } = installDesktop(200);
    renderScreen(<ServerSetupPage />);
    const address = await screen.findByDisplayValue('http://localhost:3000/api/v1');
    await userEvent.clear(address);
    await userEvent.type(address, 'https://chat.acme.test/api/v1/');
    await userEvent.type(screen.getByLabelText('Workspace'), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(reloadApp).toHaveBeenCalledWith('/dashboard/chat'));
    expect(calls['settings:set']).toEqual([{ apiBase: 'https://chat.acme.test/api/v1', subdomain: 'acme' }]);
    expect((calls['http:fetch']![0] as { url: string }).url).toMatch(/\/tenants\/$/);
  });

  it('stays on the page and says so when the server does not answer for the workspace', async () => {
    installDesktop(404);
    renderScreen(<ServerSetupPage />);
    await screen.findByDisplayValue('http://localhost:3000/api/v1');
    await userEvent.type(screen.getByLabelText('Workspace'), 'nobody');
    await userEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The server did not answer for this workspace.');
    expect(reloadApp).not.toHaveBeenCalled();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi } from '../../../test/fakeApi';
import { testSignupSettings } from '../../../test/fixtures';
import { renderScreen } from '../../../test/render';
import SignupSettingsPage from './SignupSettingsPage';

afterEach(() => setPlatformForTests(null));

const settings = testSignupSettings();

describe('admin sign-up settings', () => {
  it('saves a changed approval mode and verification methods', async () => {
    const api = installFakeApi({
      'GET /tenants/sign-up-settings/': () => Response.json(settings),
      'PATCH /admin/sign-up-settings/': async (request) => Response.json({ ...settings, ...((await request.json()) as object) }),
    });
    const user = userEvent.setup();
    renderScreen(<SignupSettingsPage />);
    await user.click(await screen.findByRole('radio', { name: 'Approved at once and welcomed by email' }));
    await user.click(screen.getByRole('checkbox', { name: 'Text message' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Sign-up settings saved.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/sign-up-settings/')[0]!.json()).toEqual({ ...settings, approval: 'auto', verification_methods: ['email', 'sms'] });
  });

  it('asks for at least one verification method', async () => {
    const api = installFakeApi({ 'GET /tenants/sign-up-settings/': () => Response.json(settings) });
    const user = userEvent.setup();
    renderScreen(<SignupSettingsPage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Choose at least one method.')).toBeInTheDocument();
    expect(api.find('PATCH', '/admin/sign-up-settings/')).toHaveLength(0);
  });
});

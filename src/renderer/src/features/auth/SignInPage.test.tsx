import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import SignInPage from './SignInPage';

const tenant = () => Response.json({ subdomain: 'demo', tenant_name: 'Acme', logo_url: null, plan: { is_low_llm_free: false } });

beforeEach(() => useUserSession.setState({ member: null, language: null }));
afterEach(() => setPlatformForTests(null));

async function submit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in page', () => {
  it('shows the tenant and checks the fields before calling the server (spec §5)', async () => {
    const api = installFakeApi({ 'GET /tenants/': tenant });
    renderScreen(<SignInPage />);
    expect(await screen.findByText('Acme')).toBeInTheDocument();

    await submit('', '');
    expect(screen.getAllByText('This is a required field.')).toHaveLength(2);

    expect(screen.getByLabelText('Email')).toHaveFocus();

    await submit('ada@example', 'short');
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    // Only the email is wrong: the password is one being signed in with, never held to the new-password rules.
    expect(screen.getAllByText(/./, { selector: '.mantine-InputWrapper-error' })).toHaveLength(1);
    expect(api.find('POST', '/auth/sign-in/')).toHaveLength(0);
  });

  it('sends a wrong password that breaks the new-password rules and says it is incorrect, not how to choose one (issue 20)', async () => {
    const api = installFakeApi({
      'GET /tenants/': tenant,
      'POST /auth/sign-in/': () => Response.json({ code: 'invalid_credentials', message: 'x' }, { status: 401 }),
    });
    renderScreen(<SignInPage />);
    await submit('ada@example.com', 'abc');
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is incorrect.');
    expect(screen.queryByText(/letters, numbers and special characters/)).toBeNull();
    expect(screen.queryByText(/at least 8 characters/)).toBeNull();
    expect(await api.find('POST', '/auth/sign-in/')[0]!.json()).toEqual({ email: 'ada@example.com', password: 'abc' });
  });

  it("shows the tenant's logo (from the server the app talks to) and does not write the name it carries again", async () => {
    installFakeApi({
      'GET /tenants/': () => Response.json({ subdomain: 'demo', tenant_name: 'Acme', logo_url: '/api/v1/tenants/logo/3/', plan: { is_low_llm_free: false } }),
    });
    renderScreen(<SignInPage />);
    expect(await screen.findByRole('img', { name: 'Acme' })).toHaveAttribute('src', 'http://app.test/api/v1/tenants/logo/3/');
    expect(screen.queryByText('Acme')).toBeNull();
  });

  it('writes the name under its initial for a tenant without a logo', async () => {
    installFakeApi({ 'GET /tenants/': () => Response.json({ subdomain: 'demo', tenant_name: 'Acme', logo_url: null, plan: { is_low_llm_free: false } }) });
    renderScreen(<SignInPage />);
    expect(await screen.findByTestId('tenant-name')).toHaveTextContent('Acme');
    expect(screen.getAllByText(/Acme/)).toHaveLength(1);
  });

  it('puts the keyboard on the first field in error, and only that field says what is wrong', async () => {
    installFakeApi({ 'GET /tenants/': tenant });
    renderScreen(<SignInPage />);
    await submit('ada@example.com', '');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(screen.getAllByText('This is a required field.')).toHaveLength(1);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('This is a required field.');
  });

  it('sends the trimmed email the server checks', async () => {
    const api = installFakeApi({ 'GET /tenants/': tenant, 'POST /auth/sign-in/': () => Response.json({ code: 'x', message: 'x' }, { status: 401 }) });
    renderScreen(<SignInPage />);
    await submit('  ada@example.com ', 'Valid-pass1!');
    await screen.findByRole('alert');
    expect(await api.find('POST', '/auth/sign-in/')[0]!.json()).toEqual({ email: 'ada@example.com', password: 'Valid-pass1!' });
  });

  it.each([
    [401, {}, 'The email or password is incorrect.'],
    [403, {}, 'Your account has not been approved yet. Please contact your administrator.'],
    [403, { member_type: 'individual' }, 'Your account has not been approved yet. Please contact customer support.'],
    [423, {}, 'This account is not eligible to use the service.'],
    // The time is the local clock's, a minute from now.
    [429, { retry_after_seconds: 60 }, 'Too many sign-in attempts. Please try again at '],
  ])('answers a %i sign-in with its message', async (status, details, message) => {
    installFakeApi({
      'GET /tenants/': tenant,
      'POST /auth/sign-in/': () => Response.json({ code: 'x', message: 'x', details }, { status }),
    });
    renderScreen(<SignInPage />);
    await submit('ada@example.com', 'Valid-pass1!');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(useUserSession.getState().member).toBeNull();
  });

  it('links to the forgot password page', async () => {
    installFakeApi({ 'GET /tenants/': tenant });
    renderScreen(<SignInPage />);
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/forgot');
  });
});

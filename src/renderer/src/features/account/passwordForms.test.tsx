import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { ChangePasswordForm } from './ChangePasswordForm';
import ForgotPasswordPage from './ForgotPasswordPage';
import ResetPasswordPage from './ResetPasswordPage';

const tenant = () => Response.json({ subdomain: 'demo', tenant_name: 'Acme', logo_url: null, plan: { is_low_llm_free: false } });
const ok = () => Response.json({ ok: true });
const failure = (status: number, code: string, details?: object) => () => Response.json({ code, message: code, details }, { status });

beforeEach(() => useUserSession.setState({ member: null, language: null }));
afterEach(() => setPlatformForTests(null));

describe('forgot password page', () => {
  it('checks the email, sends it with the screen language, then says to check the mail', async () => {
    const api = installFakeApi({ 'GET /tenants/': tenant, 'POST /auth/reset-password/': ok });
    renderScreen(<ForgotPasswordPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send the link' }));
    expect(screen.getByText('This is a required field.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('If ada@example.com belongs to an account here');
    expect(await api.find('POST', '/auth/reset-password/')[0]!.json()).toEqual({ email: 'ada@example.com', language: 'en' });
  });

  it.each([
    [424, 'mail_failed', undefined, 'The reset email could not be sent. Please try again later.'],
    [429, 'rate_limited', { retry_after_seconds: 600 }, 'Too many attempts. Please try again at'],
  ])('shows the %s message', async (status, code, details, message) => {
    installFakeApi({ 'GET /tenants/': tenant, 'POST /auth/reset-password/': failure(status, code, details) });
    renderScreen(<ForgotPasswordPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('reset password page', () => {
  const fill = async (password: string, confirmation: string) => {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), password);
    await user.type(screen.getByLabelText('Confirm the new password'), confirmation);
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
  };

  it('requires matching, strong passwords before sending the token from the link', async () => {
    const api = installFakeApi({ 'GET /tenants/': tenant, 'POST /auth/reset-password/confirm/': ok });
    renderScreen(<ResetPasswordPage />, { route: '/auth/reset/tok123', path: '/auth/reset/:token' });
    await fill('Strong#Pass1', 'Strong#Pass2');
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
    expect(api.find('POST', '/confirm/')).toHaveLength(0);

    await userEvent.setup().clear(screen.getByLabelText('Confirm the new password'));
    await userEvent.setup().type(screen.getByLabelText('Confirm the new password'), 'Strong#Pass1');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Sign in with the new one.');
    expect(await api.find('POST', '/confirm/')[0]!.json()).toEqual({ token: 'tok123', new_password: 'Strong#Pass1' });
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute('href', '/auth');
  });

  it("holds the new password to the tenant's minimum length and names it; a common one is refused by the server (issue 20)", async () => {
    const strict = () => Response.json({ subdomain: 'demo', tenant_name: 'Acme', logo_url: null, plan: { is_low_llm_free: false }, password_min_length: 14 });
    const api = installFakeApi({
      'GET /tenants/': strict,
      'POST /auth/reset-password/confirm/': failure(422, 'common_password', { reason: 'validation.password_common', min_length: 14 }),
    });
    renderScreen(<ResetPasswordPage />, { route: '/auth/reset/tok123', path: '/auth/reset/:token' });
    expect(await screen.findByText('At least 14 characters with letters, numbers and special characters.')).toBeInTheDocument();
    await fill('Strong#Pass1', 'Strong#Pass1');
    expect(screen.getByText('The password must be at least 14 characters long.')).toBeInTheDocument();
    expect(api.find('POST', '/confirm/')).toHaveLength(0);

    const user = userEvent.setup();
    for (const label of ['New password', 'Confirm the new password']) {
      await user.clear(screen.getByLabelText(label));
      await user.type(screen.getByLabelText(label), 'Password12345!');
    }
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This password is too common. Choose one that is harder to guess.');
  });

  it('says an expired link has expired and offers a new one', async () => {
    installFakeApi({ 'GET /tenants/': tenant, 'POST /auth/reset-password/confirm/': failure(400, 'reset_link_expired') });
    renderScreen(<ResetPasswordPage />, { route: '/auth/reset/old', path: '/auth/reset/:token' });
    await fill('Strong#Pass1', 'Strong#Pass1');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired.');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/auth/forgot');
  });
});

describe('change password form', () => {
  it('names a wrong current password, and confirms a change', async () => {
    let answer = failure(400, 'wrong_password');
    const api = installFakeApi({ 'GET /tenants/': tenant, 'POST /auth/change-password/': () => answer() });
    renderScreen(<ChangePasswordForm />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password'), 'Old#Pass123');
    await user.type(screen.getByLabelText('New password'), 'New#Pass456');
    await user.type(screen.getByLabelText('Confirm the new password'), 'New#Pass456');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is not correct.');

    answer = ok;
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your other devices are signed out.');
    expect(await api.find('POST', '/auth/change-password/')[1]!.json()).toEqual({ password: 'Old#Pass123', new_password: 'New#Pass456' });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });
});

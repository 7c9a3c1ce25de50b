import { fireEvent, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { enterText } from '../../test/enterText';
import { installFakeApi, page } from '../../test/fakeApi';
import { testCustomField, testMember, testSignupSettings } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import SignUpPage from './SignUpPage';

const policy = (id: number, policy_name: string, is_mandatory: boolean) => ({
  id,
  policy_name,
  kind: 'markdown',
  is_mandatory,
  markdown_content: `${policy_name} text`,
  video_url: null,
  file_url: null,
});

function formRoutes(overrides: Record<string, () => Response> = {}) {
  return {
    'GET /tenants/sign-up-settings/': () => Response.json(testSignupSettings()),
    'GET /tenants/member-count-check/': () => Response.json({ member_count: 1, member_limit: 10, can_add_member: true }),
    'GET /member-groups/': () => Response.json(page([{ id: 7, ko_name: '기본', en_name: 'Default group', is_default: true }])),
    'GET /custom-fields/': () =>
      Response.json({ items: [testCustomField(1, 'Department', { is_required: true }), testCustomField(2, 'Employee number', { field_type: 'number' })] }),
    'GET /policies/': () => Response.json({ items: [policy(5, 'Terms', true), policy(6, 'News', false)] }),
    ...overrides,
  };
}

beforeEach(() => useUserSession.setState({ member: null, language: 'en' }));
afterEach(() => setPlatformForTests(null));

async function fillDetails(user: UserEvent, values: { confirm?: string; employee?: string } = {}) {
  await enterText(user, screen.getByLabelText(/^Name/), 'Ada Lovelace');
  await enterText(user, screen.getByRole('textbox', { name: /^Email/ }), 'ada@example.com');
  await enterText(user, screen.getByLabelText(/^Password/), 'Valid-pass1!');
  await enterText(user, screen.getByLabelText(/^Confirm password/), values.confirm ?? 'Valid-pass1!');
  if (values.employee) await enterText(user, screen.getByLabelText(/^Employee number/), values.employee);
}

describe('sign-up page', () => {
  it('applies the spec §5 rules before sending a code', async () => {
    const api = installFakeApi(formRoutes());
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await screen.findByLabelText(/^Department/);
    expect(screen.getByDisplayValue('Default group')).toBeInTheDocument();

    await fillDetails(user, { confirm: 'Other-pass1!', employee: 'abc' });
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
    expect(screen.getByText('Department is required.')).toBeInTheDocument();
    expect(screen.getByText('Employee number must be a number.')).toBeInTheDocument();
    expect(screen.getByText('Please agree to our mandatory policies')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Confirm password/)).toHaveFocus();
    expect(api.find('POST', '/auth/code/')).toHaveLength(0);
  });

  it('asks for a name of 2 to 100 characters', async () => {
    installFakeApi(formRoutes());
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await enterText(user, await screen.findByLabelText(/^Name/), 'A');
    await enterText(user, screen.getByRole('textbox', { name: /^Email/ }), 'ada@example.com');
    await enterText(user, screen.getByLabelText(/^Password/), 'Valid-pass1!');
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    expect(screen.getByText('The name must be 2 to 100 characters.')).toBeInTheDocument();
  });

  it('lets a policy be ticked only after it was read to the end in its modal', async () => {
    installFakeApi(formRoutes());
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    const terms = await screen.findByRole('checkbox', { name: /Terms \(required\)/ });
    expect(terms).toBeDisabled();

    // A long text: jsdom lays nothing out, so the sizes are given; the end is not reached yet.
    const sizes = [
      vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(1000),
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(300),
    ];
    await user.click(screen.getByRole('button', { name: 'Read Terms' }));
    const dialog = await screen.findByRole('dialog');
    const agree = within(dialog).getByRole('button', { name: 'I agree' });
    const content = within(dialog).getByTestId('policy-content');
    expect(agree).toBeDisabled();
    expect(within(dialog).getByText('Scroll to the end to agree.')).toBeInTheDocument();
    content.scrollTop = 700;
    fireEvent.scroll(content);
    sizes.forEach((spy) => spy.mockRestore());
    expect(agree).toBeEnabled();
    await user.click(agree);
    expect(screen.getByRole('checkbox', { name: /Terms \(required\)/ })).toBeChecked();
  });

  it('a video policy counts as read when watched to its end, a file policy when opened', async () => {
    installFakeApi(
      formRoutes({
        'GET /policies/': () =>
          Response.json({
            items: [
              { ...policy(8, 'Safety video', true), kind: 'video', markdown_content: null, video_url: '/media/safety.mp4' },
              { ...policy(9, 'Handbook', true), kind: 'file', markdown_content: null, file_url: '/api/v1/policies/9/file/' },
            ],
          }),
      }),
    );
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await user.click(await screen.findByRole('button', { name: 'Read Safety video' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'I agree' })).toBeDisabled();
    fireEvent.ended(dialog.querySelector('video')!);
    await user.click(within(dialog).getByRole('button', { name: 'I agree' }));
    expect(screen.getByRole('checkbox', { name: /Safety video/ })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Read Handbook' }));
    dialog = await screen.findByRole('dialog', { name: 'Handbook' });
    expect(within(dialog).getByRole('button', { name: 'I agree' })).toBeDisabled();
    const link = within(dialog).getByRole('link', { name: 'Open the policy document' });
    expect(link.getAttribute('href')).toMatch(/\/api\/v1\/policies\/9\/file\/$/);
    link.addEventListener('click', (event) => event.preventDefault());
    await user.click(link);
    expect(within(dialog).getByRole('button', { name: 'I agree' })).toBeEnabled();
  });

  it('sends the code, counts down the resend, creates the account and shows the pending outcome', async () => {
    const now = Date.now();
    const api = installFakeApi(
      formRoutes({
        'POST /auth/code/': () =>
          Response.json({ expires_at: new Date(now + 600_000).toISOString(), resend_available_at: new Date(now + 60_000).toISOString() }),
        'POST /auth/sign-up/': () => Response.json({ outcome: 'pending', member_id: 9 }),
      }),
    );
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await screen.findByLabelText(/^Department/);
    await fillDetails(user);
    await enterText(user, screen.getByLabelText(/^Department/), 'Research');
    await user.click(screen.getByRole('button', { name: 'Read Terms' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'I agree' }));
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));

    expect(await screen.findByText('We sent a verification code to ada@example.com.')).toBeInTheDocument();
    expect(await api.find('POST', '/auth/code/')[0]!.json()).toEqual({ email: 'ada@example.com', language: 'en', method: 'email' });
    expect(screen.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();

    await enterText(user, screen.getByLabelText(/^Verification code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Request sent')).toBeInTheDocument();
    expect(await api.find('POST', '/auth/sign-up/')[0]!.json()).toEqual({
      email: 'ada@example.com',
      password: 'Valid-pass1!',
      name: 'Ada Lovelace',
      language: 'en',
      custom_fields: [{ custom_field_id: 1, value: 'Research' }],
      auth_code: '123456',
      default_member_group_id: 7,
      agreements: [5],
    });
  });

  it('signs an auto-approved member in with the credentials just typed and welcomes them', async () => {
    const now = Date.now();
    const member = testMember({ id: 9, name: 'Ada Lovelace', email: 'ada@example.com' });
    const api = installFakeApi(
      formRoutes({
        'GET /custom-fields/': () => Response.json({ items: [] }),
        'GET /policies/': () => Response.json({ items: [] }),
        'POST /auth/code/': () =>
          Response.json({ expires_at: new Date(now + 600_000).toISOString(), resend_available_at: new Date(now + 60_000).toISOString() }),
        'POST /auth/sign-up/': () => Response.json({ outcome: 'approved', member_id: 9 }),
        'POST /auth/sign-in/': () => Response.json({ access_token: 'token', access_token_expires_at: new Date(now + 900_000).toISOString(), member }),
      }),
    );
    const user = userEvent.setup();
    const { router } = renderScreen(<SignUpPage />, { route: '/auth/sign-up', path: '/auth/sign-up' });
    await screen.findByLabelText(/^Name/);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    await enterText(user, await screen.findByLabelText(/^Verification code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Welcome!')).toBeInTheDocument();
    expect(await api.find('POST', '/auth/sign-in/')[0]!.json()).toEqual({ email: 'ada@example.com', password: 'Valid-pass1!' });
    expect(useUserSession.getState().member?.id).toBe(9);
    await user.click(screen.getByRole('button', { name: 'Start chatting' }));
    expect(router.state.location.pathname).toBe('/dashboard/chat');
  });

  it.each([
    [401, { code: 'invalid_code' }, 'The verification code is incorrect.'],
    [401, { code: 'code_expired' }, 'The verification code has expired or was not found. Send a new one.'],
    [402, { code: 'member_limit_reached' }, "This workspace has reached its plan's member limit. Please contact your administrator."],
    [409, { code: 'value_already_used', details: { field_name: 'Employee number' } }, 'Employee number is already used by another member.'],
  ])('maps a sign-up %s to its message', async (status, body, message) => {
    const now = Date.now();
    installFakeApi(
      formRoutes({
        'GET /custom-fields/': () => Response.json({ items: [] }),
        'GET /policies/': () => Response.json({ items: [] }),
        'POST /auth/code/': () =>
          Response.json({ expires_at: new Date(now + 600_000).toISOString(), resend_available_at: new Date(now + 60_000).toISOString() }),
        'POST /auth/sign-up/': () => Response.json({ message: 'x', ...body }, { status }),
      }),
    );
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await screen.findByLabelText(/^Name/);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    await enterText(user, await screen.findByLabelText(/^Verification code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('names the wait of a resend refused by the cooldown', async () => {
    installFakeApi(
      formRoutes({
        'GET /custom-fields/': () => Response.json({ items: [] }),
        'GET /policies/': () => Response.json({ items: [] }),
        'POST /auth/code/': () => Response.json({ code: 'code_cooldown', message: 'x', details: { retry_after_seconds: 42 } }, { status: 429 }),
      }),
    );
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await screen.findByLabelText(/^Name/);
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please wait 42 seconds before asking for a new code.');
  });

  it('offers the SMS method when the tenant does and sends the code to the phone', async () => {
    const now = Date.now();
    const api = installFakeApi(
      formRoutes({
        'GET /tenants/sign-up-settings/': () => Response.json(testSignupSettings({ verification_methods: ['email', 'sms'] })),
        'GET /custom-fields/': () => Response.json({ items: [] }),
        'GET /policies/': () => Response.json({ items: [] }),
        'POST /auth/code/': () =>
          Response.json({ expires_at: new Date(now + 600_000).toISOString(), resend_available_at: new Date(now + 60_000).toISOString() }),
      }),
    );
    const user = userEvent.setup();
    renderScreen(<SignUpPage />);
    await screen.findByLabelText(/^Name/);
    await fillDetails(user);
    expect(screen.queryByLabelText(/^Mobile phone/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Text message' }));
    await enterText(user, screen.getByLabelText(/^Mobile phone/), '010-1234');
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    expect(screen.getByText('Please enter the number in international format, e.g. +82 10 1234 5678.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Mobile phone/));
    await enterText(user, screen.getByLabelText(/^Mobile phone/), '+82 10 1234 5678');
    await user.click(screen.getByRole('button', { name: 'Send verification code' }));
    expect(await screen.findByText('We sent a verification code to +82 10 1234 5678.')).toBeInTheDocument();
    expect(await api.find('POST', '/auth/code/')[0]!.json()).toEqual({ email: 'ada@example.com', language: 'en', method: 'sms', phone: '+82 10 1234 5678' });
  });

  it('says so instead of the form when sign-up is closed or the member limit is reached', async () => {
    installFakeApi(
      formRoutes({
        'GET /tenants/sign-up-settings/': () => Response.json(testSignupSettings({ signup_open: false, sso_only: true })),
      }),
    );
    const first = renderScreen(<SignUpPage />);
    expect(await screen.findByText('This workspace signs members in through SSO only. Please use SSO sign-in.')).toBeInTheDocument();
    first.unmount();
    installFakeApi(formRoutes({ 'GET /tenants/member-count-check/': () => Response.json({ member_count: 10, member_limit: 10, can_add_member: false }) }));
    renderScreen(<SignUpPage />);
    expect(await screen.findByText(/reached its plan's member limit/)).toBeInTheDocument();
  });
});

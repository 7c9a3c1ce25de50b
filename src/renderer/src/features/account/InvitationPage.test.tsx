import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi } from '../../test/fakeApi';
import { testMember } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import InvitationPage from './InvitationPage';

const HASH = 'abcdefghijklmnopqrstuvwx';
const member = testMember({ id: 9, name: 'Ada Lovelace', email: 'ada@example.com' });

beforeEach(() => useUserSession.setState({ member: null, language: null }));
afterEach(() => setPlatformForTests(null));

const routes = (accept: () => Response) => ({
  [`GET /invitations/${HASH}/verify/`]: () => Response.json({ tenant_name: 'Acme', email: 'ada@example.com', name: 'Ada Lovelace' }),
  'GET /policies/': () => Response.json({ items: [] }),
  [`POST /invitations/${HASH}/accept/`]: accept,
  'POST /auth/sign-in/': () => Response.json({ access_token: 'token', access_token_expires_at: new Date(Date.now() + 900_000).toISOString(), member }),
});

const open = () => renderScreen(<InvitationPage />, { route: `/auth/invitation/${HASH}`, path: '/auth/invitation/:hash' });

describe('accept an invitation', () => {
  it('checks the fields, refuses a wrong temporary password with its message, then joins, signs in and goes to the chat', async () => {
    let attempts = 0;
    const api = installFakeApi(
      routes(() => {
        attempts += 1;
        return attempts === 1
          ? Response.json({ code: 'wrong_temporary_password', message: 'no' }, { status: 401 })
          : Response.json({ member_id: 9, tenant_name: 'Acme' });
      }),
    );
    const user = userEvent.setup();
    const { router } = open();
    expect(await screen.findByRole('heading', { name: 'Join Acme' })).toBeInTheDocument();
    expect(screen.getByTestId('invitation-email')).toHaveTextContent('ada@example.com');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Ada Lovelace');

    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(screen.getAllByText('This is a required field.')).toHaveLength(2); // temporary and new password
    expect(screen.getByLabelText(/^Temporary password/)).toHaveFocus();
    expect(api.find('POST', '/accept/')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Temporary password/), 'Temp0rary!');
    await user.type(screen.getByLabelText(/^New password/), 'Joined!2345');
    await user.type(screen.getByLabelText(/^Confirm/), 'Joined!2345');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByTestId('invitation-error')).toHaveTextContent('The temporary password is not correct. Check the invitation mail.');

    await user.click(screen.getByRole('button', { name: 'Join' }));
    await screen.findByTestId('elsewhere');
    expect(router.state.location.pathname).toBe('/dashboard/chat');
    expect(await api.find('POST', '/accept/')[1]!.json()).toEqual({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      password: 'Joined!2345',
      agreements: [],
      temporary_password: 'Temp0rary!',
      language: 'en',
    });
    expect(useUserSession.getState().member?.id).toBe(9);
  });

  it('says so when the invitation is unknown or used', async () => {
    installFakeApi({
      [`GET /invitations/${HASH}/verify/`]: () => Response.json({ code: 'invitation_not_found', message: 'no' }, { status: 404 }),
      'GET /policies/': () => Response.json({ items: [] }),
    });
    open();
    expect(await screen.findByTestId('invitation-invalid')).toHaveTextContent('This invitation is not valid or was already used.');
    expect(screen.getByRole('link', { name: 'Back to sign-in' })).toBeInTheDocument();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import InvitationsPage from './InvitationsPage';
import { parseInviteLines } from './InviteDialog';

afterEach(() => setPlatformForTests(null));

const invitation = {
  id: 7,
  email: 'ada@example.test',
  name: 'Ada',
  member_group_id: null,
  status: 'pending',
  invited_by: 'admin@demo.test',
  created_at: '2026-01-01T00:00:00.000Z',
};
const routes = (extra: Record<string, (request: Request) => Response | Promise<Response>> = {}) => ({
  'GET /admin/invitations/': () => Response.json(page([invitation])),
  'GET /admin/member-groups/': () => Response.json(page([])),
  ...extra,
});

describe('invitations page', () => {
  it('reads pasted lines as email and name', () => {
    expect(parseInviteLines('a@x.test, Ann Lee\n\n b@x.test \nc@x.test;Cy', '2').map(({ email, name, groupId }) => ({ email, name, groupId }))).toEqual([
      { email: 'a@x.test', name: 'Ann Lee', groupId: '2' },
      { email: 'b@x.test', name: '', groupId: '2' },
      { email: 'c@x.test', name: 'Cy', groupId: '2' },
    ]);
  });

  it("keeps order and search in the URL's query of the list call, sends a row's group, and shows the plan's cap (402) in the invite dialog", async () => {
    const api = installFakeApi(
      routes({
        'GET /admin/member-groups/': () =>
          Response.json(
            page([
              {
                id: 4,
                ko_name: '영업',
                en_name: 'Sales',
                is_default: false,
                credit_quota: null,
                member_credit_quota: null,
                member_count: 0,
                usable_models: [],
                created_at: '2026-01-01T00:00:00.000Z',
              },
            ]),
          ),
        'POST /admin/invitations/bulk/': () => Response.json({ code: 'invitation_limit_reached', message: 'x' }, { status: 402 }),
      }),
    );
    renderScreen(<InvitationsPage />, { route: '/?order=email.asc' });
    expect(await screen.findByText('ada@example.test')).toBeVisible();
    const listCall = new URL(api.find('GET', '/admin/invitations/')[0]!.url);
    expect([listCall.searchParams.get('order_by'), listCall.searchParams.get('order_type')]).toEqual(['email', 'asc']);

    await userEvent.click(screen.getByRole('button', { name: 'Invite members' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email, row 1' }), 'new@example.test');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Group, row 1' }), 'Sales');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send 1 invitation' }));
    expect(await within(dialog).findByTestId('invite-error')).toHaveTextContent("Your plan's invitation limit would be exceeded.");
    expect(await api.find('POST', '/admin/invitations/bulk/')[0]!.json()).toEqual({ members: [{ email: 'new@example.test', member_group_id: 4 }] });
  });

  it('shows row-level results, and says SSO members cannot invite (403)', async () => {
    let status = 200;
    installFakeApi(
      routes({
        'POST /admin/invitations/bulk/': () =>
          status === 200
            ? Response.json({
                results: [
                  { email: 'new@example.test', result: 'invited', invitation_id: 9 },
                  { email: 'ada@example.test', result: 'already_invited', invitation_id: null },
                ],
              })
            : Response.json({ code: 'forbidden', message: 'x' }, { status }),
      }),
    );
    renderScreen(<InvitationsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Invite members' }));
    let dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Paste lines' }));
    await userEvent.type(within(dialog).getByLabelText(/One person per line/), 'new@example.test{enter}ada@example.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add 2 rows' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send 2 invitations' }));
    const results = await within(dialog).findByTestId('invite-results');
    expect(results).toHaveTextContent('1 of 2 invited.');
    expect(results).toHaveTextContent('Already invited');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));

    status = 403;
    await userEvent.click(screen.getByRole('button', { name: 'Invite members' }));
    dialog = await screen.findByRole('dialog', { name: 'Invite members' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email, row 1' }), 'x@example.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send 1 invitation' }));
    expect(await within(dialog).findByTestId('invite-error')).toHaveTextContent('Members who sign in through SSO cannot invite others.');
  });

  it('deletes selected invitations after a confirmation; a gone one is a 404 message', async () => {
    installFakeApi(routes({ 'POST /admin/invitations/bulk/delete/': () => Response.json({ code: 'not_found', message: 'x' }, { status: 404 }) }));
    renderScreen(<InvitationsPage />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select ada@example.test' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete 1 invitation?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('These invitations no longer exist.')).toBeVisible();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminMember } from '../../../../../shared/api';
import { setPlatformForTests } from '../../../platform';
import { useUserSession } from '../../../stores/userSession';
import { installFakeApi, page } from '../../../test/fakeApi';
import { testMember } from '../../../test/fixtures';
import { renderScreen } from '../../../test/render';
import MembersPage from './MembersPage';

const groups = [
  { id: 1, ko_name: '기본 그룹', en_name: 'Default group', is_default: true },
  { id: 2, ko_name: '연구', en_name: 'Research', is_default: false },
];

const member = (id: number, name: string, extra: Partial<AdminMember> = {}): AdminMember => ({
  id,
  name,
  email: `${name.toLowerCase().replace(/\s/g, '.')}@example.test`,
  member_status: 'approved',
  member_type: 'organization',
  is_admin: false,
  language: 'en',
  default_member_group_id: 1,
  member_groups: [{ id: 1, ko_name: '기본 그룹', en_name: 'Default group' }],
  credit_quota: null,
  sso_platform_id: null,
  sso_id: null,
  sso_user_type: null,
  custom_fields: [
    {
      custom_field_id: 9,
      ko_name: '부서',
      en_name: 'Department',
      field_name: 'Department',
      field_type: 'text',
      is_required: true,
      is_editable: true,
      is_unique: false,
      value: 'Lab',
    },
  ],
  created_at: '2025-03-07T10:00:00Z',
  ...extra,
});

const admin = member(1, 'Ada Admin', { is_admin: true });
const grace = member(2, 'Grace Hopper');

beforeEach(() => useUserSession.getState().setMember(testMember({ id: admin.id, name: admin.name, email: admin.email, is_admin: true })));
afterEach(() => {
  setPlatformForTests(null);
  useUserSession.setState({ member: null });
});

describe('admin members page', () => {
  it('keeps search and filters in the URL and sends them to the list call', async () => {
    const api = installFakeApi({
      'GET /member-groups/': () => Response.json(page(groups)),
      'GET /admin/members/': () => Response.json(page([admin, grace])),
    });
    const user = userEvent.setup();
    const { router } = renderScreen(<MembersPage />, { route: '/admin/members?member_status=approved' });
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(api.find('GET', '/admin/members/')[0]!.url).toContain('member_status=approved');

    await user.click(screen.getByRole('searchbox', { name: 'Search members' }));
    await user.paste('grace');
    await waitFor(() => expect(router.state.location.search).toContain('search=grace'));
    await waitFor(() => expect(api.find('GET', '/admin/members/').at(-1)!.url).toContain('search_term=grace'));
    expect(router.state.location.search).toContain('member_status=approved');
  });

  it('cannot select oneself; bulk credit limit reports how many were changed', async () => {
    const api = installFakeApi({
      'GET /member-groups/': () => Response.json(page(groups)),
      'GET /admin/members/': () => Response.json(page([admin, grace])),
      'PATCH /admin/members/bulk/': () => Response.json({ updated: 1 }),
    });
    const user = userEvent.setup();
    renderScreen(<MembersPage />);
    expect(await screen.findByRole('checkbox', { name: 'Select Ada Admin' })).toBeDisabled();
    const header = within(screen.getByTestId('members-header-actions'));
    expect(header.getByRole('button', { name: 'Export members' })).toBeInTheDocument();
    expect(header.getByRole('link', { name: 'Upload members' })).toHaveAttribute('href', '/admin/members/upload');

    await user.click(screen.getByRole('checkbox', { name: 'Select Grace Hopper' }));
    await user.click(screen.getByRole('button', { name: 'Set credit limit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credit limit of 1 member' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Monthly credit limit' }), '300');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Credit limit set for 1 of 1 members.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/members/bulk/')[0]!.json()).toEqual({ member_ids: [2], credit_quota: 300 });
  });

  it('bulk delete asks first and names the 404 when a member is gone', async () => {
    const api = installFakeApi({
      'GET /member-groups/': () => Response.json(page(groups)),
      'GET /admin/members/': () => Response.json(page([admin, grace])),
      'POST /admin/members/bulk/delete/': () => Response.json({ code: 'not_found', message: 'gone' }, { status: 404 }),
    });
    const user = userEvent.setup();
    renderScreen(<MembersPage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select Grace Hopper' }));
    await user.click(screen.getByTestId('bulk-delete'));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 member?' });
    expect(api.find('POST', '/admin/members/bulk/delete/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('This member no longer exists. The list has been refreshed.')).toBeInTheDocument();
  });

  it('edits a member in the drawer: groups, custom field and credit limit in one PATCH; admin rights after a confirmation', async () => {
    const api = installFakeApi({
      'GET /member-groups/': () => Response.json(page(groups)),
      'GET /admin/members/': () => Response.json(page([admin, grace])),
      'GET /admin/members/2/': () => Response.json(grace),
      'PATCH /admin/members/2/': async (request) => {
        const body = (await request.json()) as Partial<AdminMember> & { is_admin?: boolean };
        return Response.json({ ...grace, ...(body.is_admin !== undefined ? { is_admin: body.is_admin } : { credit_quota: 750 }) });
      },
    });
    const user = userEvent.setup();
    renderScreen(<MembersPage />);
    await user.click(await screen.findByRole('button', { name: 'Grace Hopper' }));
    const drawer = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    await within(drawer).findByDisplayValue('Lab');

    await user.click(within(drawer).getByRole('combobox', { name: 'Additional groups' }));
    // The group filter's options are in the document too: the drawer's list is the last one opened.
    await user.click((await screen.findAllByRole('option', { name: 'Research', hidden: true })).at(-1)!);
    await user.clear(within(drawer).getByRole('textbox', { name: 'Department' }));
    await user.type(within(drawer).getByRole('textbox', { name: 'Department' }), 'Physics');
    await user.click(within(drawer).getByRole('checkbox', { name: "Use the group's monthly limit per member" }));
    await user.type(within(drawer).getByRole('textbox', { name: 'Monthly credit limit' }), '750');
    await user.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved Grace Hopper.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/members/2/')[0]!.json()).toEqual({
      name: 'Grace Hopper',
      default_member_group_id: 1,
      member_group_ids: [1, 2],
      custom_fields: [{ custom_field_id: 9, value: 'Physics' }],
      credit_quota: 750,
    });

    await user.click(within(screen.getByRole('dialog', { name: 'Grace Hopper' })).getByRole('switch', { name: /^Admin rights/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Make Grace Hopper an admin?' });
    expect(api.find('PATCH', '/admin/members/2/')).toHaveLength(1);
    await user.click(within(confirm).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('Grace Hopper is now an admin.')).toBeInTheDocument();
    expect(await api.find('PATCH', '/admin/members/2/')[1]!.json()).toEqual({ is_admin: true });
  });

  it('one’s own row has admin rights and delete locked', async () => {
    installFakeApi({
      'GET /member-groups/': () => Response.json(page(groups)),
      'GET /admin/members/': () => Response.json(page([admin])),
      'GET /admin/members/1/': () => Response.json(admin),
    });
    const user = userEvent.setup();
    renderScreen(<MembersPage />);
    await user.click(await screen.findByRole('button', { name: 'Ada Admin' }));
    const drawer = await screen.findByRole('dialog', { name: 'Ada Admin' });
    expect(await within(drawer).findByRole('switch', { name: /^Admin rights/ })).toBeDisabled();
    expect(within(drawer).getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(within(drawer).getByText('You cannot remove your own admin rights or delete your own account.')).toBeInTheDocument();
  });
});

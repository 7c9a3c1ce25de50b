import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import GroupsPage from './GroupsPage';

afterEach(() => setPlatformForTests(null));

const group = (id: number, en: string, extra: object = {}) => ({
  id,
  ko_name: `${en} 한`,
  en_name: en,
  is_default: false,
  credit_quota: null,
  member_credit_quota: null,
  member_count: 3,
  usable_models: [],
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const groups = [group(1, 'Everyone', { is_default: true, credit_quota: 50000, member_credit_quota: 5000 }), group(2, 'Research', { credit_quota: 1000 })];
const usage = {
  items: [
    { id: 1, ko_name: '', en_name: 'Everyone', credit_quota: 50000, used: 0, period: '2026-01' },
    { id: 2, ko_name: '', en_name: 'Research', credit_quota: 1000, used: 250, period: '2026-01' },
  ],
};

describe('groups page', () => {
  it("lists groups with quotas and this month's usage, and locks the default group's quotas", async () => {
    installFakeApi({
      'GET /admin/member-groups/': () => Response.json(page(groups)),
      'GET /admin/member-groups/usage/': () => Response.json(usage),
    });
    renderScreen(<GroupsPage />);
    const research = (await screen.findAllByTestId('admin-group-row'))[1]!;
    expect(await within(research).findByText('250 of 1,000')).toBeVisible();
    expect(within(research).getAllByText('No limit')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Everyone' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Credit quotas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credit quotas: Everyone' });
    expect(within(dialog).getByTestId('quota-locked')).toHaveTextContent("The default group's credit info cannot be changed.");
    expect(within(dialog).getByLabelText('Group monthly quota')).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('says under the field which name is in use (409), and tells an admin without permission to sign out and retry (403)', async () => {
    let status = 409;
    installFakeApi({
      'GET /admin/member-groups/': () => Response.json(page(groups)),
      'GET /admin/member-groups/usage/': () => Response.json(usage),
      'POST /admin/member-groups/': () =>
        Response.json({ code: status === 409 ? 'group_name_taken' : 'forbidden', message: 'x', details: { field: 'ko_name' } }, { status }),
    });
    renderScreen(<GroupsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'New group' }));
    const dialog = await screen.findByRole('dialog', { name: 'New group' });
    await userEvent.type(within(dialog).getByLabelText(/Korean name/), '연구');
    await userEvent.type(within(dialog).getByLabelText(/English name/), 'Lab');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(within(dialog).getByLabelText(/Korean name/)).toHaveAccessibleDescription('This name is in use by another group.'));

    status = 403;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('You do not have permission to manage groups. Sign out, sign in again and retry.')).toBeVisible();
  });

  it('deletes a group after a confirmation that says its members fall back to the default group', async () => {
    const api = installFakeApi({
      'GET /admin/member-groups/': () => Response.json(page(groups)),
      'GET /admin/member-groups/usage/': () => Response.json(usage),
      'DELETE /admin/member-groups/2/': () => Response.json({ ok: true, moved_members: 3 }),
    });
    renderScreen(<GroupsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Research' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Research?' });
    expect(confirm).toHaveTextContent('Its 3 members fall back to the default group');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Group deleted. 3 members moved to the default group.')).toBeVisible();
    expect(api.find('DELETE', '/admin/member-groups/2/')).toHaveLength(1);
  });
});

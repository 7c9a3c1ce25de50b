import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { GroupsSection } from './GroupsSection';

const groups = [
  { id: 1, ko_name: '일반', en_name: 'General' },
  { id: 2, ko_name: '연구팀', en_name: 'Research' },
];
const state = (pending: object | null, current = { default_member_group_id: 1, member_group_ids: [1] }, approvalRequired = true) => ({
  current,
  pending,
  groups,
  approval_required: approvalRequired,
});

afterEach(() => setPlatformForTests(null));

describe('groups on My page', () => {
  it('lists the groups and sends the chosen groups with the default, then shows the pending request', async () => {
    const api = installFakeApi({
      'GET /members/7/groups/': () => Response.json(state(null)),
      'PATCH /members/7/group/': () => Response.json(state({ default_member_group_id: 2, member_group_ids: [1, 2], created_at: '2026-01-01T00:00:00Z' })),
      'DELETE /members/7/group-queues/': () => Response.json(state(null)),
    });
    renderScreen(<GroupsSection memberId={7} />);
    expect(await screen.findByText('General (default)')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Research' }));
    await user.click(screen.getByLabelText('Default group', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Research', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Request the change' }));
    expect(await screen.findByRole('status')).toHaveTextContent('waiting for an administrator: General, Research (default).');
    expect(await api.find('PATCH', '/group/')[0]!.json()).toEqual({ default_member_group_id: 2, member_group_ids: [1, 2] });

    await user.click(screen.getByRole('button', { name: 'Withdraw the request' }));
    expect(await screen.findByRole('button', { name: 'Request the change' })).toBeInTheDocument();
  });

  it('changes the groups at once when the tenant does not require approval', async () => {
    installFakeApi({
      'GET /members/7/groups/': () => Response.json(state(null, undefined, false)),
      'PATCH /members/7/group/': () => Response.json(state(null, { default_member_group_id: 1, member_group_ids: [1, 2] }, false)),
    });
    renderScreen(<GroupsSection memberId={7} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Research' }));
    await user.click(screen.getByRole('button', { name: 'Change groups' }));
    expect(await screen.findByTestId('groups-changed')).toHaveTextContent('Your groups have been changed.');
    expect(screen.getByTestId('my-groups')).toHaveTextContent('Research');
  });
});

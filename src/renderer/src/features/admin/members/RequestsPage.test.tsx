import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemberRequest } from '../../../../../shared/api';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import RequestsPage from './RequestsPage';

afterEach(() => setPlatformForTests(null));

const defaultGroup = { id: 1, ko_name: '기본 그룹', en_name: 'Default group' };
const research = { id: 2, ko_name: '연구', en_name: 'Research' };
const request = (memberId: number, name: string, type: MemberRequest['request_type']): MemberRequest => ({
  member_id: memberId,
  name,
  email: `${name.toLowerCase()}@example.test`,
  member_type: 'organization',
  request_type: type,
  requested_default_member_group_id: 1,
  requested_groups: type === 'registration' ? [defaultGroup] : [defaultGroup, research],
  current_groups: type === 'registration' ? [] : [defaultGroup],
  requested_at: '2025-03-07T10:00:00Z',
});

describe('pending requests page', () => {
  it('shows each request’s type and groups, filters by type in the URL, and approves one', async () => {
    const api = installFakeApi({
      'GET /admin/member-requests/': () => Response.json(page([request(5, 'Newcomer', 'registration'), request(6, 'Mover', 'group_update')])),
      'POST /admin/members/5/process-pending-request/': () => Response.json({ member_status: 'approved', request_type: 'registration' }),
    });
    const user = userEvent.setup();
    const { router } = renderScreen(<RequestsPage />);
    const mover = (await screen.findByText('Mover')).closest('tr')!;
    expect(within(mover).getByText('Group change')).toBeInTheDocument();
    expect(within(mover).getByText('Default group, Research')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Approve Newcomer' }));
    expect(await screen.findByText('Approved 1 request.')).toBeInTheDocument();
    expect(await api.find('POST', '/admin/members/5/process-pending-request/')[0]!.json()).toEqual({ approve: true });

    await user.click(screen.getByRole('radio', { name: 'New registration' }));
    await waitFor(() => expect(router.state.location.search).toContain('type=registration'));
    await waitFor(() => expect(api.find('GET', '/admin/member-requests/').at(-1)!.url).toContain('request_type=registration'));
  });

  it('rejects in bulk only with a reason, and says so when the plan is full (402)', async () => {
    const api = installFakeApi({
      'GET /admin/member-requests/': () => Response.json(page([request(5, 'Newcomer', 'registration'), request(6, 'Mover', 'group_update')])),
      'POST /admin/members/bulk/process-pending-request/': async (req) => {
        const body = (await req.clone().json()) as { approve: boolean };
        return body.approve ? Response.json({ code: 'member_limit_reached', message: 'full' }, { status: 402 }) : Response.json({ processed: 2 });
      },
    });
    const user = userEvent.setup();
    renderScreen(<RequestsPage />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select every request on this page' }));

    await user.click(screen.getByRole('button', { name: 'Approve selected' }));
    expect(await screen.findByText("Approving would exceed your plan's member limit. Upgrade the plan or remove members first.")).toBeInTheDocument();

    // A refused decision keeps the selection: the admin can reject them instead.
    await user.click(screen.getByRole('button', { name: 'Reject selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 requests' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('Please provide a reason for the requester.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/members/bulk/process-pending-request/')).toHaveLength(1);
    await user.type(within(dialog).getByRole('textbox', { name: /Reason for the requester/ }), 'Not an employee');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Rejected 2 requests: the requesters were told why.')).toBeInTheDocument();
    expect(await api.find('POST', '/admin/members/bulk/process-pending-request/')[1]!.json()).toEqual({
      member_ids: [5, 6],
      approve: false,
      reason: 'Not an employee',
    });
  });

  it('says when nothing is waiting', async () => {
    installFakeApi({ 'GET /admin/member-requests/': () => Response.json(page([])) });
    renderScreen(<RequestsPage />);
    expect(await screen.findByText('No request is waiting.')).toBeInTheDocument();
  });
});

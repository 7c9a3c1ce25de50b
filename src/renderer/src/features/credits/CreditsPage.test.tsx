import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreditEntry, Member, MemberUsage } from '../../../../shared/api';
import { setPlatformForTests } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { installFakeApi, page } from '../../test/fakeApi';
import { testMember } from '../../test/fixtures';
import { renderScreen } from '../../test/render';
import CreditsPage from './CreditsPage';

const member = (memberType: Member['member_type']) => testMember({ id: 9, member_type: memberType });
const usage = (over: Partial<MemberUsage>): MemberUsage => ({
  period_start: '2026-11-01',
  period_end: '2026-11-30',
  limited_by: 'member',
  quota: 5000,
  usage: 1234.9,
  remaining: 3765.1,
  percentage_used: 24.698,
  depleted: false,
  depletion_kind: 'team',
  message_count: 10,
  average_message_cost: 123,
  estimated_messages_left: 30,
  models: [],
  ...over,
});
const entry: CreditEntry = {
  id: 1,
  quota: 100000,
  usage: 2500,
  created_at: '2026-11-01T00:00:00Z',
  usage_start_date: '2026-11-01',
  usage_end_date: '2026-11-30',
  ko_name: '팀 월간 크레딧',
  en_name: 'Team monthly credits',
  expired: false,
  transaction: null,
};

function show(memberType: Member['member_type'], usageNow: MemberUsage) {
  useUserSession.getState().setMember(member(memberType));
  installFakeApi({
    'GET /members/9/usage/': () => Response.json(usageNow),
    'GET /credits/': () => Response.json(page([entry])),
    'POST /log-error/': () => Response.json({ ok: true }),
  });
  renderScreen(<CreditsPage />);
}

afterEach(() => setPlatformForTests(null));

describe('credits page', () => {
  it("shows this month's figures rounded down and grouped, and the credit history, without a warning below 50 %", async () => {
    show('organization', usage({}));
    expect(await screen.findByTestId('credits-used')).toHaveTextContent('1,234');
    expect(screen.getByTestId('credits-quota')).toHaveTextContent('5,000');
    // What is left is the quota less the usage shown, so the figures add up: 1,234 + 3,766 = 5,000.
    expect(screen.getByTestId('credits-remaining')).toHaveTextContent('3,766');
    expect(screen.queryByTestId('credits-state')).toBeNull();
    expect(await screen.findByText('Team monthly credits')).toBeVisible();
    expect(screen.getByText('100,000')).toBeVisible();
  });

  it('warns at 80 % and tells an organisation member to contact their administrator', async () => {
    show('organization', usage({ usage: 4100, remaining: 900, percentage_used: 82 }));
    const state = await screen.findByTestId('credits-state');
    expect(state).toHaveAttribute('data-state', 'used_80');
    expect(state).toHaveTextContent('Ask your administrator for more credits or a plan upgrade.');
    expect(screen.queryByRole('link', { name: 'See plans' })).toBeNull();
  });

  it("shows an individual's depletion with a link to the plans", async () => {
    show('individual', usage({ usage: 5000, remaining: 0, percentage_used: 100, depleted: true, depletion_kind: 'individual', estimated_messages_left: 0 }));
    const state = await screen.findByTestId('credits-state');
    expect(state).toHaveAttribute('data-state', 'depleted');
    expect(state).toHaveTextContent('You have used all your credits.');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/dashboard/plans');
  });

  it('says when about 10 messages are left', async () => {
    show('organization', usage({ usage: 3000, remaining: 2000, percentage_used: 60, estimated_messages_left: 8 }));
    expect(await screen.findByTestId('credits-state')).toHaveAttribute('data-state', 'almost_depleted');
  });
});

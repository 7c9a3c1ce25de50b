import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../../platform';
import { useUserSession } from '../../../stores/userSession';
import { installFakeApi } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import AdminDashboardPage, { usageCsv } from './AdminDashboardPage';
import { valueTicks } from './UsageChart';

const months = [
  { month: '2026-10', active_users: 3, messages: 40, credits: 120.5, new_members: 1 },
  { month: '2026-11', active_users: 5, messages: 1200, credits: 300, new_members: 0 },
];

afterEach(() => {
  setPlatformForTests(null);
  useUserSession.setState({ language: null });
});

function installDashboard() {
  installFakeApi({
    'GET /admin/dashboards/': () =>
      Response.json({
        month: '2026-11',
        member_count: 1500,
        monthly_active_users: 5,
        monthly_messages: 1200,
        public_chatbot_count: 2,
        private_chatbot_count: 7,
      }),
    'GET /admin/dashboards/usage/': () => Response.json({ months }),
    'POST /log-error/': () => Response.json({ ok: true }),
  });
}

describe('admin dashboard page', () => {
  it('shows the cards and a chart per metric', async () => {
    installDashboard();
    renderScreen(<AdminDashboardPage />);
    expect(await screen.findByTestId('card-members')).toHaveTextContent('1,500');
    expect(screen.getByTestId('card-messages')).toHaveTextContent('1,200');
    expect(screen.getByTestId('card-private-chatbots')).toHaveTextContent('7');
    expect(await screen.findByRole('group', { name: 'Messages' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Credits used' })).toBeInTheDocument();
  });

  it('names each month by its value and labels the axes', async () => {
    installDashboard();
    renderScreen(<AdminDashboardPage />);
    const messages = await screen.findByRole('group', { name: 'Messages' });
    expect(
      within(messages)
        .getAllByRole('img')
        .map((bar) => bar.getAttribute('aria-label')),
    ).toEqual(['Oct 2026: 40', 'Nov 2026: 1,200']);
    // Credits are shown rounded down (spec §9).
    expect(within(screen.getByRole('group', { name: 'Credits used' })).getByRole('img', { name: 'Oct 2026: 120' })).toBeInTheDocument();
    const chart = messages.parentElement!;
    // Months under the bars (the year once), values up the side from 0 to a round top.
    expect(chart).toHaveTextContent(/Oct\s*2026\s*Nov/);
    expect(chart).toHaveTextContent(/^0\s*500\s*1,000\s*1,500/);
  });

  it('shows a month’s value on hover and moves between months with the arrow keys', async () => {
    installDashboard();
    const user = userEvent.setup();
    renderScreen(<AdminDashboardPage />);
    const messages = await screen.findByRole('group', { name: 'Messages' });
    await user.hover(within(messages).getByRole('img', { name: 'Oct 2026: 40' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Oct 2026: 40');
    await user.unhover(within(messages).getByRole('img', { name: 'Oct 2026: 40' }));

    // One Tab stop per chart, on the latest month; the arrows go from there.
    const latest = within(messages).getByRole('img', { name: 'Nov 2026: 1,200' });
    expect(latest).toHaveAttribute('tabindex', '0');
    latest.focus();
    await user.keyboard('{ArrowLeft}');
    const previous = within(messages).getByRole('img', { name: 'Oct 2026: 40' });
    expect(previous).toHaveFocus();
    expect(await screen.findByRole('tooltip', { name: 'Oct 2026: 40' })).toBeVisible();
    expect(latest).toHaveAttribute('tabindex', '-1');
  });

  it('writes the months in the member’s language', async () => {
    useUserSession.setState({ language: 'ko' });
    installDashboard();
    renderScreen(<AdminDashboardPage />);
    const messages = await screen.findByRole('group', { name: 'Messages' });
    expect(within(messages).getByRole('img', { name: '2026년 11월: 1,200' })).toBeInTheDocument();
    expect(messages.parentElement).toHaveTextContent(/10월\s*2026년\s*11월/);
  });

  it('maps a 403 on the cards to its own message', async () => {
    installFakeApi({
      'GET /admin/dashboards/': () => Response.json({ code: 'forbidden', message: 'x' }, { status: 403 }),
      'GET /admin/dashboards/usage/': () => Response.json({ months }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    renderScreen(<AdminDashboardPage />);
    expect(await screen.findByText('Only administrators can see the dashboard.')).toBeVisible();
  });

  it('puts the value axis on round steps from 0 past the largest value', () => {
    expect(valueTicks(0)).toEqual([0, 1]);
    expect(valueTicks(1)).toEqual([0, 1]);
    expect(valueTicks(5)).toEqual([0, 2, 4, 6]);
    expect(valueTicks(1200)).toEqual([0, 500, 1000, 1500]);
  });

  it('writes the months as CSV', () => {
    expect(usageCsv(months)).toBe('month,messages,active_users,credits,new_members\n2026-10,40,3,120.5,1\n2026-11,1200,5,300,0');
  });
});

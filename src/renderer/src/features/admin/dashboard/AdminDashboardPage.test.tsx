import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import AdminDashboardPage, { usageCsv } from './AdminDashboardPage';

const months = [
  { month: '2026-10', active_users: 3, messages: 40, credits: 120.5, new_members: 1 },
  { month: '2026-11', active_users: 5, messages: 1200, credits: 300, new_members: 0 },
];

afterEach(() => setPlatformForTests(null));

describe('admin dashboard page', () => {
  it('shows the cards and a chart per metric', async () => {
    installFakeApi({
      'GET /admin/dashboards/': () =>
        Response.json({ month: '2026-11', member_count: 1500, monthly_active_users: 5, monthly_messages: 1200, public_chatbot_count: 2, private_chatbot_count: 7 }),
      'GET /admin/dashboards/usage/': () => Response.json({ months }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    renderScreen(<AdminDashboardPage />);
    expect(await screen.findByTestId('card-members')).toHaveTextContent('1,500');
    expect(screen.getByTestId('card-messages')).toHaveTextContent('1,200');
    expect(screen.getByTestId('card-private-chatbots')).toHaveTextContent('7');
    expect(await screen.findByRole('img', { name: 'Messages' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Credits used' })).toBeInTheDocument();
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

  it('writes the months as CSV', () => {
    expect(usageCsv(months)).toBe('month,messages,active_users,credits,new_members\n2026-10,40,3,120.5,1\n2026-11,1200,5,300,0');
  });
});

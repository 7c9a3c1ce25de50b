import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setPlatformForTests } from '../../platform';
import { installFakeApi } from '../../test/fakeApi';
import { renderScreen } from '../../test/render';
import { WorkspacePlanSection } from './WorkspacePlanSection';

const plan = (en: string, limit: number | null) => ({
  id: 1,
  ko_name: en,
  en_name: en,
  krw_month_price: 49000,
  credit: 1000,
  member_limit: limit,
  invitation_limit: null,
});

afterEach(() => setPlatformForTests(null));

describe('workspace plan on My page', () => {
  it('shows the plan, the seats in use and a pending plan change', async () => {
    installFakeApi({
      'GET /tenants/membership/': () =>
        Response.json({
          plan: plan('Team', 50),
          plan_status: 'active',
          next_plan: plan('Business', 500),
          membership_status: 'active',
          price: 49000,
          currency: 'KRW',
          next_payment_date: '2026-12-01',
          member_count: 12,
        }),
    });
    renderScreen(<WorkspacePlanSection />);
    expect(await screen.findByText('Team')).toBeInTheDocument();
    expect(screen.getByText('12 of 50 members')).toBeInTheDocument();
    expect(screen.getByText('Changes to Business on Dec 1, 2026.')).toBeInTheDocument();
  });

  it('maps a 401 to get_tenant_membership_data_401', async () => {
    installFakeApi({ 'GET /tenants/membership/': () => Response.json({ code: 'unauthorized', message: 'Login required.' }, { status: 401 }) });
    renderScreen(<WorkspacePlanSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent("The workspace's plan could not be loaded. Please sign in again.");
  });
});

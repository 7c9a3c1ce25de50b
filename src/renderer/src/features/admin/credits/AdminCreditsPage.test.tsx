import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreditAllocation, CreditUsageReport } from '../../../../../shared/api';
import { setPlatformForTests } from '../../../platform';
import { installFakeApi, page } from '../../../test/fakeApi';
import { renderScreen } from '../../../test/render';
import AdminCreditsPage from './AdminCreditsPage';

const allocation: CreditAllocation = {
  period: '2026-11',
  tenant_remaining: 98765.4,
  groups: [
    { id: 1, ko_name: '기본 그룹', en_name: 'Default group', is_default: true, credit_quota: 50000, member_credit_quota: 5000, member_count: 2, used: 10.5 },
    { id: 2, ko_name: '영업', en_name: 'Sales', is_default: false, credit_quota: 1000, member_credit_quota: 100, member_count: 0, used: 0 },
  ],
  members: {
    ...page([{ id: 7, name: 'Ada', email: 'ada@demo.test', member_group_id: 1, credit_quota: null, effective_quota: 5000, used: 12.9 }]),
    page_size: 10,
  },
};
const report: CreditUsageReport = {
  month: '2026-11',
  group_by: 'group',
  llm: [
    {
      key_id: 1,
      ko_name: '기본 그룹',
      en_name: 'Default group',
      model_name: 'gpt-test',
      messages: 3,
      input_tokens: 12000,
      output_tokens: 3400,
      input_credits: 24.7,
      output_credits: 6.2,
      web_search_count: 1,
      web_search_credits: 4,
    },
  ],
  image: [{ key_id: 1, ko_name: '기본 그룹', en_name: 'Default group', model_name: 'image-model', count: 2, credits: 80 }],
};

afterEach(() => setPlatformForTests(null));

describe('admin credits page', () => {
  it("locks the default group's credit info and saves changed group and member quotas in one call", async () => {
    const api = installFakeApi({
      'GET /admin/credits/allocation/': () => Response.json(allocation),
      'PUT /admin/credits/allocation/': () => Response.json({ updated: 2 }),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    renderScreen(<AdminCreditsPage />);
    expect(await screen.findByRole('textbox', { name: 'Monthly limit of Default group' })).toBeDisabled();
    const sales = screen.getByRole('textbox', { name: 'Monthly limit of Sales' });
    await userEvent.clear(sales);
    await userEvent.type(sales, '2500');
    await userEvent.type(screen.getByRole('textbox', { name: 'Own limit of Ada' }), '750');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes (2)' }));
    expect(await screen.findByText('The credit allocation was saved.')).toBeVisible();
    const [put] = api.find('PUT', '/admin/credits/allocation/');
    expect(await put!.json()).toEqual({ groups: [{ id: 2, credit_quota: 2500 }], members: [{ id: 7, credit_quota: 750 }] });
  });

  it('shows the LLM and image usage tables', async () => {
    installFakeApi({
      'GET /admin/credits/usage/': () => Response.json(report),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    renderScreen(<AdminCreditsPage />, { route: '/?tab=usage' });
    const llm = await screen.findByTestId('usage-llm');
    expect(within(llm).getByText('gpt-test')).toBeVisible();
    expect(within(llm).getByText('12,000')).toBeVisible();
    expect(within(llm).getByText('24')).toBeVisible();
    expect(within(screen.getByTestId('usage-image')).getByText('80')).toBeVisible();
  });

  it('shows the purchase history with prices in the language of the page', async () => {
    installFakeApi({
      'GET /admin/credits/': () =>
        Response.json(
          page([
            {
              id: 3,
              quota: 3000,
              usage: 0,
              created_at: '2026-11-02T00:00:00Z',
              usage_start_date: '2026-11-02',
              usage_end_date: '2027-11-01',
              ko_name: '충전',
              en_name: 'Top-up',
              expired: false,
              transaction: { id: 3, price: 30000, currency: 'KRW', receipt_url: null, created_at: '2026-11-02T00:00:00Z' },
            },
          ]),
        ),
      'POST /log-error/': () => Response.json({ ok: true }),
    });
    renderScreen(<AdminCreditsPage />, { route: '/?tab=purchases' });
    const table = await screen.findByTestId('credit-entries');
    await waitFor(() => expect(within(table).getByText('Top-up')).toBeVisible());
    expect(within(table).getByText('₩30,000')).toBeVisible();
    expect(within(table).getByText('2026-11-02 – 2027-11-01')).toBeVisible();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderScreen } from '../../test/render';
import { PERIOD_FILTERS, listPeriod } from './dayRange';
import { PeriodFilter } from './PeriodFilter';
import { useListState } from './useListState';

const FILTERS = z.object(PERIOD_FILTERS);

/** A list page's use of the filter: the URL's period, and what the page would send for it. */
function PeriodList() {
  const list = useListState({ size: 10, filters: FILTERS });
  const period = listPeriod(list.filters);
  return (
    <>
      <PeriodFilter list={list} period={period} />
      <output data-testid="sent">{JSON.stringify(period.query)}</output>
    </>
  );
}

/** The start of the local day `days` from today, as the API takes it. */
function dayStartFromToday(days: number): string {
  const date = new Date();
  date.setHours(0, 0, 0, 0);
  date.setDate(date.getDate() + days);
  return date.toISOString();
}

const sent = () => JSON.parse(screen.getByTestId('sent').textContent!) as { from?: string; to?: string };

describe('the period filter', () => {
  it('offers the presets, keeps the chosen one by name in the URL and sends its days', async () => {
    const user = userEvent.setup();
    const { router } = renderScreen(<PeriodList />);
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Any time', 'Last 7 days', 'Last 30 days', 'This month', 'Last month', 'Custom range']);
    await user.click(screen.getByRole('option', { name: 'Last 7 days' }));

    expect(new URLSearchParams(router.state.location.search).get('period')).toBe('last_7_days');
    // Today and the six days before it: from the start of the first to the start of tomorrow.
    expect(sent()).toEqual({ from: dayStartFromToday(-6), to: dayStartFromToday(1) });
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
  });

  it('turns a preset into a custom range of the same days, whose dates can then be changed', async () => {
    const user = userEvent.setup();
    const { router } = renderScreen(<PeriodList />, { route: '/?period=last_month' });
    const lastMonth = sent();
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Custom range' }));

    expect(sent()).toEqual(lastMonth);
    const from = screen.getByLabelText('From');
    expect(new URLSearchParams(router.state.location.search).get('period')).toBe('custom');
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe((from as HTMLInputElement).value);

    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2000-01-01');
    expect(screen.getByText('The start date must not be after the end date.')).toBeInTheDocument();
    expect(sent().to).toBeUndefined();

    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(await screen.findByRole('option', { name: 'Any time' }));
    expect(router.state.location.search).not.toMatch(/period=|from=|to=/);
    expect(screen.getByRole('combobox', { name: 'Period' })).toHaveValue('Any time');
    expect(screen.queryByLabelText('From')).not.toBeInTheDocument();
  });
});

import { describe, expect, it } from 'vitest';
import { presetDays, resolvePeriod } from './dayRange';

// 5 March 2024, a leap year: last month has 29 days.
const TODAY = new Date(2024, 2, 5, 15, 30);

describe('period presets', () => {
  it('counts each preset in local days back from today, today included', () => {
    expect(presetDays('last_7_days', TODAY)).toEqual({ from: '2024-02-28', to: '2024-03-05' });
    expect(presetDays('last_30_days', TODAY)).toEqual({ from: '2024-02-05', to: '2024-03-05' });
    expect(presetDays('this_month', TODAY)).toEqual({ from: '2024-03-01', to: '2024-03-05' });
    expect(presetDays('last_month', TODAY)).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    // Across a year: January's last month is the previous December.
    expect(presetDays('last_month', new Date(2025, 0, 10))).toEqual({ from: '2024-12-01', to: '2024-12-31' });
  });

  it('reads a preset by name, a custom range by its days, and days without a period as a custom range', () => {
    expect(resolvePeriod({ period: 'this_month', from: '2020-01-01' }, TODAY)).toEqual({ choice: 'this_month', from: '2024-03-01', to: '2024-03-05' });
    expect(resolvePeriod({ period: 'custom', from: '2024-01-02' }, TODAY)).toEqual({ choice: 'custom', from: '2024-01-02', to: '' });
    expect(resolvePeriod({ from: '2024-01-02', to: '2024-01-09' }, TODAY)).toEqual({ choice: 'custom', from: '2024-01-02', to: '2024-01-09' });
    expect(resolvePeriod({}, TODAY)).toEqual({ choice: null, from: '', to: '' });
  });
});

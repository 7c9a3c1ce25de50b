import { describe, expect, it } from 'vitest';
import { grantUsage } from './entries';

describe('grantUsage', () => {
  it('charges live grants in the order they lapse, grants without an end last', () => {
    const used = grantUsage(
      [
        { id: 1, amount: 1000, usageEndDate: null, expiredAmount: null },
        { id: 2, amount: 300, usageEndDate: '2031-02-28', expiredAmount: null },
        { id: 3, amount: 200, usageEndDate: '2031-02-10', expiredAmount: null },
      ],
      // 1500 granted, 1100 left: 400 used, the grant lapsing first (3) fully, then 200 of grant 2.
      1100,
    );
    expect(Object.fromEntries(used)).toEqual({ 1: 0, 2: 200, 3: 200 });
  });

  it('takes an expired grant’s usage from its expiry', () => {
    const used = grantUsage(
      [
        { id: 1, amount: 100, usageEndDate: '2031-01-31', expiredAmount: -40 },
        { id: 2, amount: 50, usageEndDate: null, expiredAmount: null },
      ],
      50,
    );
    expect(Object.fromEntries(used)).toEqual({ 1: 60, 2: 0 });
  });

  it('never charges more than a grant holds, even when the pool is overdrawn', () => {
    expect(Object.fromEntries(grantUsage([{ id: 1, amount: 10, usageEndDate: null, expiredAmount: null }], -5))).toEqual({ 1: 10 });
  });
});

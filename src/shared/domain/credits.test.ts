import { describe, expect, it } from 'vitest';
import { creditWarning, depletionKind, displayCredits, shownCreditFigures } from './credits';

describe('depletion message (spec §4)', () => {
  const kind = (over: Partial<Parameters<typeof depletionKind>[0]>) =>
    depletionKind({ scope: 'member', memberType: 'organization', freePlan: false, billedToCreator: false, ...over });

  it("names the chatbot's creator when the send runs on the creator's credits", () => {
    expect(kind({ billedToCreator: true })).toBe('chatbot_creator');
    expect(kind({ billedToCreator: true, memberType: 'individual', scope: 'tenant', freePlan: true })).toBe('chatbot_creator');
  });

  it('gives individuals their own message, or the free plan one', () => {
    expect(kind({ memberType: 'individual' })).toBe('individual');
    expect(kind({ memberType: 'individual', scope: 'tenant' })).toBe('individual');
    expect(kind({ memberType: 'individual', freePlan: true })).toBe('free_plan');
  });

  it("gives organisation members the tenant's message for the pool, the team's for a monthly allocation", () => {
    expect(kind({ scope: 'tenant' })).toBe('tenant');
    expect(kind({ scope: 'tenant', freePlan: true })).toBe('free_plan');
    expect(kind({ scope: 'group' })).toBe('team');
    expect(kind({ scope: 'member', freePlan: true })).toBe('team');
  });
});

describe('credit warnings (spec §9)', () => {
  const warn = (percentage_used: number | null, estimated_messages_left: number | null = null, depleted = false) =>
    creditWarning({ percentage_used, estimated_messages_left, depleted });

  it('at 50 % and 80 % used, about 10 messages left, and depleted, the strongest winning', () => {
    expect(warn(null)).toBeNull();
    expect(warn(49.9)).toBeNull();
    expect(warn(50)).toBe('used_50');
    expect(warn(80)).toBe('used_80');
    expect(warn(80, 11)).toBe('used_80');
    expect(warn(20, 10)).toBe('almost_depleted');
    expect(warn(95, 0)).toBe('almost_depleted');
    expect(warn(100, 0, true)).toBe('depleted');
  });
});

describe('credit figures on screen (spec §9)', () => {
  it('are rounded down to an integer and never below zero', () => {
    expect(displayCredits(9.9999)).toBe(9);
    expect(displayCredits(4)).toBe(4);
    expect(displayCredits(0.4)).toBe(0);
    expect(displayCredits(-0.2)).toBe(0);
  });
});

describe('shownCreditFigures', () => {
  it('rounds usage down and shows what is left as the quota less that, so the two add up to the quota', () => {
    expect(shownCreditFigures({ quota: 5000, usage: 4.51 })).toEqual({ used: 4, remaining: 4996 });
    expect(shownCreditFigures({ quota: 5000, usage: 0.99 })).toEqual({ used: 0, remaining: 5000 });
    expect(shownCreditFigures({ quota: 10, usage: 12.3 })).toEqual({ used: 12, remaining: 0 });
    expect(shownCreditFigures({ quota: null, usage: 7.9 })).toEqual({ used: 7, remaining: null });
  });
});

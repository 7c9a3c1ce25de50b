import { describe, expect, it } from 'vitest';
import { formatDate } from './formatDate';

describe('dates (spec §9)', () => {
  const date = new Date(2025, 2, 7, 12);

  it('uses the Korean long form for ko', () => {
    expect(formatDate(date, 'ko')).toBe('2025년 3월 7일');
  });

  it('uses short month, day and year otherwise', () => {
    expect(formatDate(date, 'en')).toBe('Mar 7, 2025');
    expect(formatDate(date, 'es')).toBe('7 mar 2025');
  });
});

import { describe, expect, it } from 'vitest';
import { formatDate, formatMonth } from './formatDate';

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

describe('months', () => {
  it('writes a month with its year in each language', () => {
    expect(formatMonth('2026-06', 'en')).toBe('Jun 2026');
    expect(formatMonth('2026-06', 'ko')).toBe('2026년 6월');
    expect(formatMonth('2026-06', 'ja')).toBe('2026年6月');
    expect(formatMonth('2026-06', 'es')).toBe('jun 2026');
  });

  it('writes the month or the year alone for an axis', () => {
    expect(formatMonth('2026-01', 'en', 'short')).toBe('Jan');
    expect(formatMonth('2026-12', 'ko', 'short')).toBe('12월');
    expect(formatMonth('2026-12', 'ko', 'year')).toBe('2026년');
  });
});

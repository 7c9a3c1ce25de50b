import type { SupportedLanguage } from '../../../shared/domain/language';

/** Spec §9: Korean long form ("2025년 3월 7일") for ko, short month, day and year otherwise. */
export function formatDate(value: string | Date, language: SupportedLanguage): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const options: Intl.DateTimeFormatOptions =
    language === 'ko' ? { year: 'numeric', month: 'long', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(language, options).format(date);
}

/**
 * A `YYYY-MM` month in the language: `long` with its year ("Jun 2026", "2026년 6월"), `short`
 * without ("Jun", "6월"), `year` alone ("2026", "2026년"). Read in UTC, like the server's months.
 */
export function formatMonth(month: string, language: SupportedLanguage, style: 'long' | 'short' | 'year' = 'long'): string {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  const options: Record<typeof style, Intl.DateTimeFormatOptions> = {
    long: { year: 'numeric', month: 'short' },
    short: { month: 'short' },
    year: { year: 'numeric' },
  };
  return new Intl.DateTimeFormat(language, { ...options[style], timeZone: 'UTC' }).format(new Date(Date.UTC(year, monthIndex - 1, 1)));
}

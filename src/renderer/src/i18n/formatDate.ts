import type { SupportedLanguage } from '../../../shared/domain/language';

/** Spec §9: Korean long form ("2025년 3월 7일") for ko, short month, day and year otherwise. */
export function formatDate(value: string | Date, language: SupportedLanguage): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const options: Intl.DateTimeFormatOptions =
    language === 'ko' ? { year: 'numeric', month: 'long', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(language, options).format(date);
}

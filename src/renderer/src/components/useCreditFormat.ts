import { useMemo } from 'react';
import { displayCredits } from '../../../shared/domain/credits';
import { useResolvedLanguage } from '../i18n/useLanguage';

/** Credits (rounded down, spec §9), counts and prices in the member's language (Intl.NumberFormat). */
export function useCreditFormat() {
  const language = useResolvedLanguage();
  return useMemo(() => {
    const number = new Intl.NumberFormat(language);
    return {
      credits: (value: number) => number.format(displayCredits(value)),
      count: (value: number) => number.format(value),
      money: (value: number, currency: string) => new Intl.NumberFormat(language, { style: 'currency', currency }).format(value),
      date: (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso)),
    };
  }, [language]);
}

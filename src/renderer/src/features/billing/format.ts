import type { BillingPlan } from '../../../../shared/api/billing';
import type { SupportedLanguage } from '../../../../shared/domain/language';
import { formatDate } from '../../i18n/formatDate';

/** KRW as each language writes it (₩29,000, 29,000원 for ko is Intl's ₩29,000 too). */
export const formatKrw = (amount: number, language: SupportedLanguage): string =>
  new Intl.NumberFormat(language, { style: 'currency', currency: 'KRW' }).format(amount);

export const formatCredits = (credits: number, language: SupportedLanguage): string =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(Math.floor(credits));

/** A membership date (YYYY-MM-DD, a calendar day) in the reader's format. */
export const formatDay = (day: string, language: SupportedLanguage): string => formatDate(new Date(`${day}T00:00:00`), language);

export const planName = (plan: Pick<BillingPlan, 'ko_name' | 'en_name'>, language: SupportedLanguage): string =>
  language === 'ko' ? plan.ko_name : plan.en_name;

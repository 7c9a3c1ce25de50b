import { FALLBACK_LANGUAGE, SUPPORTED_LANGUAGES } from './constants';

export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * Spec §4: the stored value wins; otherwise only ko or en is auto-chosen, ko when the browser's
 * primary language is Korean, else en.
 */
export function resolveLanguage(stored: string | null | undefined, browserLanguage: string | undefined): SupportedLanguage {
  if (isSupportedLanguage(stored)) return stored;
  const primary = browserLanguage?.toLowerCase().split('-')[0];
  return primary === 'ko' ? 'ko' : FALLBACK_LANGUAGE;
}

/**
 * The interface languages, defined once: the zod enum of the contract, the database enum, i18next and
 * the language menu are all built from this list.
 */
export const LANGUAGES = ['ko', 'en', 'zh', 'ja', 'es'] as const;
export const FALLBACK_LANGUAGE = 'en';

export type SupportedLanguage = (typeof LANGUAGES)[number];

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
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

/** Anything that carries a Korean and an English name (spec §1), either of which may be empty. */
export interface BilingualName {
  ko_name: string;
  en_name: string;
}

/** Spec §1 asks for Korean and English names, not for both: one of the two is enough. */
export const hasOneName = (names: BilingualName): boolean => names.ko_name.trim() !== '' || names.en_name.trim() !== '';

/** Which of the two names a language writes to: Korean for Korean, English for every other language. */
export const nameKeyOf = (language: SupportedLanguage): keyof BilingualName => (language === 'ko' ? 'ko_name' : 'en_name');

/**
 * The name to show in an interface language: Korean in Korean, English in every other language,
 * and the other name when that one is empty. The one rule for groups, chatbots, custom fields and
 * task modes.
 */
export function localizedName(named: BilingualName, language: SupportedLanguage): string {
  const ko = named.ko_name.trim();
  const en = named.en_name.trim();
  return language === 'ko' ? ko || en : en || ko;
}

/** The language a server's answer names things in: the one asked for, else the signed-in reader's, else English (spec §4). */
export function readerLanguage(asked: SupportedLanguage | undefined, reader: { language: SupportedLanguage } | null | undefined): SupportedLanguage {
  return asked ?? reader?.language ?? FALLBACK_LANGUAGE;
}

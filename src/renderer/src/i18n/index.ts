import i18next, { type BackendModule, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FIRST_SCREEN_NAMESPACES } from './firstScreen';
import { FALLBACK_LANGUAGE, LANGUAGES, type SupportedLanguage } from '../../../shared/domain/language';

type LocaleModule = { default: Record<string, unknown> };

/**
 * Every `locales/<lng>/<namespace>.json` is found by these globs; a feature adds a namespace by
 * adding files, without touching this module. Only the English strings of the first screens
 * (sign-in, desktop setup, the app frame and its errors) are bundled; every other file, English
 * included, is loaded in its own chunk: a language the first time it is used, a feature's
 * namespace before its route shows (`loadAllNamespaces`). The first screen then does not carry
 * four languages nor the strings of screens the user has not opened.
 */
const files = import.meta.glob<LocaleModule>('./locales/en/{common,auth,errors,desktop}.json', { eager: true });
const lazyFiles = import.meta.glob<LocaleModule>(['./locales/*/*.json', '!./locales/en/{common,auth,errors,desktop}.json']);

/** An i18next backend reading the lazily bundled locale files; i18next loads before it switches. */
const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = lazyFiles[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

export function collectResources(modules: Record<string, { default: Record<string, unknown> }>): Resource {
  const resources: Resource = {};
  for (const [path, module] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match as unknown as [string, string, string];
    resources[language] ??= {};
    resources[language][namespace] = module.default;
  }
  return resources;
}

const resources = collectResources(files);
export const namespaces = [...new Set([...FIRST_SCREEN_NAMESPACES, ...Object.keys(lazyFiles).map((path) => /\/([^/]+)\.json$/.exec(path)?.[1] ?? '')])].filter(
  Boolean,
);

export function initI18n(language: SupportedLanguage): typeof i18next {
  if (!i18next.isInitialized) {
    void i18next
      .use(lazyLocales)
      .use(initReactI18next)
      .init({
        resources,
        partialBundledLanguages: true,
        lng: language,
        fallbackLng: FALLBACK_LANGUAGE,
        supportedLngs: [...LANGUAGES],
        ns: namespaces,
        defaultNS: 'common',
        interpolation: { escapeValue: false },
        initAsync: false,
      });
  } else if (i18next.language !== language) {
    void i18next.changeLanguage(language);
  }
  document.documentElement.lang = language;
  return i18next;
}

/** Resolves once the first screen's strings are loaded in the current language (and its fallback). */
export const loadLanguage = (): Promise<void> => i18next.loadNamespaces(FIRST_SCREEN_NAMESPACES);

/** Resolves once every namespace is loaded in the current language: route loaders wait for it. */
export const loadAllNamespaces = (): Promise<void> => i18next.loadNamespaces(namespaces);

export { i18next };

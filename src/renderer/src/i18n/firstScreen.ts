/**
 * Namespaces of the first screens (sign-in, desktop setup, the app frame and its errors): the only
 * English strings in the entry chunk. i18n/index.ts globs exactly these (a glob must be a literal)
 * and the web build keeps every other locale file out of the entry chunk.
 */
export const FIRST_SCREEN_NAMESPACES = ['common', 'auth', 'errors', 'desktop'];

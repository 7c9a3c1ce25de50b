/**
 * Transitional barrel: the constants now live in one file per subject (chat, http, language,
 * pagination, ui, account, errorLog). Import from those; this file goes once branches written
 * against it are merged.
 */
export * from './account';
export * from './chat';
export * from './errorLog';
export * from './http';
export { FALLBACK_LANGUAGE, LANGUAGES, STORED_DEFAULT_LANGUAGE } from './language';
export * from './pagination';
export * from './ui';

/** A chat's export (Markdown, JSON, print) and the JSON's import (docs/decisions/0079-chat-export-import.md). */

export const SESSION_EXPORT_FORMATS = ['markdown', 'json'] as const;
export type SessionExportFormat = (typeof SESSION_EXPORT_FORMATS)[number];

/** The JSON document's `version`; a later shape gets a new number and the import says which it reads. */
export const SESSION_EXPORT_VERSION = 1;

/** The import refuses a larger body (413) before it is parsed. */
export const SESSION_IMPORT_MAX_BYTES = 8 * 1024 * 1024;
/** Bounds of one imported document, generous for any real chat, tight enough that a hostile one stays cheap. */
export const SESSION_IMPORT_MAX_MESSAGES = 5000;
export const SESSION_IMPORT_MAX_TEXT = 500_000;
export const SESSION_IMPORT_MAX_ATTACHMENTS = 50;
export const SESSION_IMPORT_MAX_CITATIONS = 200;
export const SESSION_IMPORT_MAX_TOOL_CALLS = 100;

const FILE_EXTENSIONS: Record<SessionExportFormat, string> = { markdown: 'md', json: 'json' };
/** Characters no file system takes in a name, and control characters. */
const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;
const FILE_NAME_MAX = 100;

/**
 * The download's name: the session's title (Korean and other scripts kept) without the characters
 * file systems refuse, at most 100 characters, `chat` when nothing is left; then the format's
 * extension. The server's Content-Disposition and the client's save use the same name.
 */
export function sessionExportFileName(title: string | null, format: SessionExportFormat): string {
  const safe = Array.from((title ?? '').normalize('NFC').replace(UNSAFE_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ').trim())
    .slice(0, FILE_NAME_MAX)
    .join('')
    // Windows drops trailing dots and spaces; a leading dot hides the file elsewhere.
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return `${safe || 'chat'}.${FILE_EXTENSIONS[format]}`;
}

/** Client route of a chat's print view (`${SESSION_PRINT_ROUTE}/{hash}`): the chat alone, for the browser to print or save as PDF. */
export const SESSION_PRINT_ROUTE = '/print/chats';

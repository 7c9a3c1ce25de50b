import { DEFAULT_LIST_PAGE_SIZE } from './pagination';
import { validateEmail } from './validation';

/** SSO whitelist (spec §5 "Whitelist upload", §9 "Whitelist default order"). */
export const SSO_WHITELIST_ORDERS = ['id.desc', 'id.asc', 'email.asc', 'email.desc'] as const;
export const SSO_WHITELIST_DEFAULT_ORDER = 'id.desc';
/** Spec §9: admin lists default to 10 a page. */
export const SSO_WHITELIST_PAGE_SIZE = DEFAULT_LIST_PAGE_SIZE;
/** Emails per bulk-upsert call: an upload of more is sent in batches of this size (spec §5 "batches"). */
export const SSO_WHITELIST_BATCH = 500;
/** The largest whitelist file the screen reads (a CSV of 100 000 addresses is about 3 MB). */
export const SSO_WHITELIST_FILE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The addresses of pasted text or a CSV/TXT file: every comma, semicolon, tab, space or line
 * separated cell that contains an `@` (so a header row `email,name` or a name column is skipped),
 * lower-cased and without duplicates; `invalid` are the cells with an `@` that are not emails.
 */
export function parseWhitelistEmails(text: string): { emails: string[]; invalid: string[] } {
  const emails = new Set<string>();
  const invalid = new Set<string>();
  for (const raw of text.split(/[\s,;]+/)) {
    const cell = raw
      .replace(/^["']+|["']+$/g, '')
      .trim()
      .toLowerCase();
    if (!cell.includes('@')) continue;
    if (validateEmail(cell)) invalid.add(cell);
    else emails.add(cell);
  }
  return { emails: [...emails], invalid: [...invalid] };
}

/** Search across my chats (GET /sessions/?search_term=…), shared by the contract, the server and the renderer. */

/** Longer terms are refused (400): no one types them, and each word costs a pattern match per message. */
export const SESSION_SEARCH_MAX_LENGTH = 200;
export const SESSION_SEARCH_MAX_WORDS = 8;
/**
 * A single character is in most chats and no index can find it (docs/decisions/0073-chat-search.md):
 * the API refuses such a word (400) and the search box leaves it out until a second one is typed.
 */
export const SESSION_SEARCH_MIN_WORD_LENGTH = 2;
/**
 * Messages the indexes may find for a term (in all the organisation's chats: a GIN index cannot tell
 * whose they are) before it counts as common. Up to this many, every matching session is counted and
 * ranked; beyond, the member's sessions are walked from the most recent and the walk stops one past
 * the page (docs/decisions/0073-chat-search.md).
 */
export const SESSION_SEARCH_RANKED_MATCHES_MAX = 2000;

/** Length in characters (code points), as PostgreSQL counts it. */
export const characterCount = (word: string) => [...word].length;

/** The distinct words of a search term (split on white space); a session matches when it contains them all. */
export function searchWords(term: string): string[] {
  return [...new Set(term.split(/\s+/u).filter((word) => word !== ''))];
}

/** The part of what was typed that can be searched: its words of 2 characters or more ('' when none). */
export function searchableTerm(typed: string): string {
  return searchWords(typed)
    .filter((word) => characterCount(word) >= SESSION_SEARCH_MIN_WORD_LENGTH)
    .join(' ');
}

export interface Range {
  start: number;
  end: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where any of the words occurs in `text`, case-insensitively, without overlaps, in order. Longer
 * words are tried first, so "chat" inside "chatbot" marks the whole of "chatbot" when both are searched.
 */
export function matchRanges(text: string, words: readonly string[]): Range[] {
  if (words.length === 0) return [];
  const alternatives = [...words].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(alternatives.join('|'), 'giu');
  return Array.from(text.matchAll(pattern), (match) => ({ start: match.index, end: match.index + match[0].length }));
}

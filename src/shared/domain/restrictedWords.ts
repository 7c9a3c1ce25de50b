/** Restricted words (spec §3, §5): chat input containing one is refused. */
export const RESTRICTED_WORD_MAX_LENGTH = 100;
export const RESTRICTED_WORDS_PAGE_SIZE = 10;

/** The words of the list that occur in `text`, ignoring letter case (a word matches inside longer words too). */
export function findRestrictedWords(text: string, words: readonly string[]): string[] {
  const haystack = text.toLocaleLowerCase();
  return words.filter((word) => word !== '' && haystack.includes(word.toLocaleLowerCase()));
}

/** One parsed section of a file (a file_sections row). */
export interface SectionText {
  page: number | null;
  heading: string | null;
  text: string;
}

export interface Chunk {
  ordinal: number;
  page: number | null;
  section: string | null;
  text: string;
}

/**
 * Passage size in characters: long enough to hold an answer with its context, short enough that
 * five of them stay a small part of any model's context (about 2,000 tokens together).
 */
export const CHUNK_CHARS = 800;
/** Text repeated at the start of the next piece when a paragraph has to be cut, so a sentence split by the cut is still found whole. */
const OVERLAP_CHARS = 120;

/** Splits an over-long paragraph at sentence ends where it can, else at a space, else anywhere. */
function cutLong(paragraph: string): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > CHUNK_CHARS) {
    const window = rest.slice(0, CHUNK_CHARS);
    const sentenceEnd = Math.max(...['. ', '? ', '! ', '。', '다. ', '\n'].map((mark) => window.lastIndexOf(mark)));
    const space = window.lastIndexOf(' ');
    const cut = sentenceEnd > CHUNK_CHARS / 2 ? sentenceEnd + 1 : space > CHUNK_CHARS / 2 ? space : CHUNK_CHARS;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(Math.max(cut - OVERLAP_CHARS, 1));
  }
  if (rest.trim()) pieces.push(rest.trim());
  return pieces;
}

/**
 * Passages of a file's sections in reading order: paragraphs are packed together up to
 * CHUNK_CHARS and never cross a section, so each passage keeps one page or heading to cite.
 */
export function chunkSections(sections: readonly SectionText[]): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const paragraphs = section.text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.replace(/[ \t]+/g, ' ').trim())
      .filter(Boolean)
      .flatMap(cutLong);
    let current = '';
    const flush = () => {
      if (current) chunks.push({ ordinal: chunks.length, page: section.page, section: section.heading, text: current });
      current = '';
    };
    for (const paragraph of paragraphs) {
      if (current && current.length + paragraph.length + 2 > CHUNK_CHARS) flush();
      current = current ? `${current}\n\n${paragraph}` : paragraph;
    }
    flush();
  }
  return chunks;
}

/** Question words that say what kind of answer is wanted, not what it is about (they would only add noise to trigram matching). */
const STOP_WORDS = new Set(
  (
    'a an the is are was were be do does did can could should would i my me we you your it its of in on at to for from with by and or ' +
    'what when where which who whom why how many much long there this that these those have has get any about ' +
    '언제 언제까지 며칠 얼마 얼마나 얼마예요 무엇 뭐 뭔가요 어떻게 어디 누가 몇 몇시 있나요 하나요 해야 인가요 되나요 돼요 가능한가요 있어요 수 좀 알려줘 알려주세요'
  ).split(' '),
);
/** Particles and endings attached to Korean words; the stem without them matches other forms of the word. korean_stems (migration 0050) strips the same list from passages: change both. */
const KOREAN_SUFFIX = /(?:에서는|에서|으로|부터|까지|에게|이나|이란|이면|하면|하려면|은|는|이|가|을|를|의|에|로|와|과|도|만)$/u;
const HANGUL = /\p{Script=Hangul}/u;

/** Chinese and Japanese write without spaces: a "word" is a whole phrase, so its character pairs are looked for instead. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const pairsOf = (word: string) => Array.from({ length: word.length - 1 }, (_, i) => word.slice(i, i + 2));

/**
 * Words of a question to look for: letters and digits of any script, lowercased, without question
 * words, Korean particles removed, Chinese and Japanese phrases as character pairs, without repeats.
 */
export function queryTerms(question: string, max = 24): string[] {
  const words = question.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms = words
    .filter((word) => !STOP_WORDS.has(word))
    .flatMap((word) => {
      if (UNSPACED.test(word) && word.length > 2) return pairsOf(word);
      const stem = HANGUL.test(word) ? word.replace(KOREAN_SUFFIX, '') : word;
      return [stem.length >= 2 ? stem : word];
    })
    .filter((word) => word.length >= 2 || HANGUL.test(word) || UNSPACED.test(word));
  return [...new Set(terms)].slice(0, max);
}

/** A short excerpt of a passage around the first question word it contains (the citation snippet). */
export function snippetOf(text: string, terms: readonly string[], length = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const lower = flat.toLocaleLowerCase();
  const hits = terms.map((term) => lower.indexOf(term)).filter((index) => index >= 0);
  const first = hits.length > 0 ? Math.min(...hits) : 0;
  const start = Math.max(0, Math.min(first - Math.floor(length / 4), flat.length - length));
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + length).trim()}${start + length < flat.length ? '…' : ''}`;
}

import { describe, expect, it } from 'vitest';
import { CHUNK_CHARS, chunkSections, queryTerms, snippetOf } from './chunking';

describe('chunkSections', () => {
  it('packs paragraphs up to the passage size without crossing a section, keeping page and heading', () => {
    const chunks = chunkSections([
      { page: 1, heading: null, text: 'One.\n\nTwo.' },
      { page: 2, heading: 'Later', text: `${'a '.repeat(300)}\n\n${'b '.repeat(300)}` },
    ]);
    expect(chunks[0]).toEqual({ ordinal: 0, page: 1, section: null, text: 'One.\n\nTwo.' });
    expect(chunks.slice(1).every((chunk) => chunk.page === 2 && chunk.section === 'Later')).toBe(true);
    expect(chunks).toHaveLength(3);
  });

  it('cuts an over-long paragraph at sentence ends with some overlap', () => {
    const sentence = 'This sentence is about forty characters. ';
    const chunks = chunkSections([{ page: null, heading: null, text: sentence.repeat(60) }]);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.text.length <= CHUNK_CHARS)).toBe(true);
    expect(chunks.every((chunk) => chunk.text.endsWith('.'))).toBe(true);
  });
});

describe('queryTerms', () => {
  it('drops question words, strips Korean particles and splits Chinese and Japanese phrases into pairs', () => {
    expect(queryTerms('How many vacation days do I get?')).toEqual(['vacation', 'days']);
    expect(queryTerms('휴가 신청은 언제까지 해야 하나요?')).toEqual(['휴가', '신청']);
    expect(queryTerms('年假有几天')).toEqual(['年假', '假有', '有几', '几天']);
  });
});

describe('snippetOf', () => {
  it('shows the part of a long passage around the first question word', () => {
    const text = `${'filler '.repeat(80)}the parental leave lasts sixteen weeks ${'more '.repeat(80)}`;
    const snippet = snippetOf(text, ['parental']);
    expect(snippet).toContain('parental leave lasts sixteen weeks');
    expect(snippet.startsWith('…') && snippet.endsWith('…')).toBe(true);
  });
});

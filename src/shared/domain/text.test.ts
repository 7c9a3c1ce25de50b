import { describe, expect, it } from 'vitest';
import { isWellFormedText, toWellFormedText } from './text';

describe('well-formed text', () => {
  it('accepts pairs and refuses lone halves', () => {
    expect(isWellFormedText('도서관 📚')).toBe(true);
    expect(isWellFormedText('a\ud83db')).toBe(false);
    expect(isWellFormedText('a\udcdab')).toBe(false);
  });

  it('replaces only the lone halves with U+FFFD', () => {
    expect(toWellFormedText('📚 a\ud83db \udcda')).toBe('📚 a\uFFFDb \uFFFD');
    expect(isWellFormedText(toWellFormedText('\ud800\ud800\udc00'))).toBe(true);
  });
});

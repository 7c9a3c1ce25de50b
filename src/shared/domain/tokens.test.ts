import { describe, expect, it } from 'vitest';
import { estimateTokens } from './tokens';

describe('estimateTokens', () => {
  it('counts about four UTF-8 bytes per token', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('안녕하세요')).toBe(4); // 15 bytes
    expect(estimateTokens('😀😀')).toBe(2); // two 4-byte characters
  });
});

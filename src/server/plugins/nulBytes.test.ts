import { describe, expect, it } from 'vitest';
import { containsNul } from './nulBytes';

describe('containsNul', () => {
  it.each([
    ['a string', 'a\u0000b'],
    ['a nested value', { a: [{ b: ['ok', 'x\u0000'] }] }],
    ['an object key', { ['key\u0000']: 1 }],
  ])('finds a NUL byte in %s', (_, value) => {
    expect(containsNul(value)).toBe(true);
  });

  it('accepts text without one, other types and binary bodies', () => {
    expect(containsNul({ text: 'héllo 😀', n: 1, ok: true, none: null, list: ['a'] })).toBe(false);
    expect(containsNul(Buffer.from([0, 1, 2]))).toBe(false);
  });

  it('walks a very deeply nested body without overflowing the stack', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(containsNul(deep)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { centredSquare } from './cropSquare';

describe('centredSquare', () => {
  it('cuts the middle of a wide picture and of a tall one, and keeps a square whole', () => {
    expect(centredSquare(1200, 800)).toEqual({ x: 200, y: 0, side: 800 });
    expect(centredSquare(300, 501)).toEqual({ x: 0, y: 100, side: 300 });
    expect(centredSquare(64, 64)).toEqual({ x: 0, y: 0, side: 64 });
  });
});

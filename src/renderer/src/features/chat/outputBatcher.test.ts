import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STREAM_TICK_MS } from '../../../../shared/domain/chat';
import { MAX_BACKLOG_TICKS, OutputBatcher, chunksToRelease, specChunksToRelease } from './outputBatcher';

describe('chunksToRelease', () => {
  it('follows the spec counts for small queues', () => {
    expect(chunksToRelease(0)).toBe(0);
    expect(chunksToRelease(1)).toBe(1);
    expect(chunksToRelease(5)).toBe(2); // catch-up: ceil(5 / 4)
    expect(chunksToRelease(4)).toBe(1);
    expect(chunksToRelease(6)).toBe(2);
  });

  it('never releases fewer than the spec count', () => {
    for (const n of [3, 6, 20, 51, 101, 150]) {
      const spec = n > 100 ? 8 : n > 50 ? 4 : n > 5 ? 2 : 1;
      expect(chunksToRelease(n)).toBeGreaterThanOrEqual(Math.min(n, spec));
    }
  });

  it('shrinks any large backlog by at least a 1/MAX_BACKLOG_TICKS share per tick', () => {
    for (const n of [60, 130, 1000, 5000]) {
      expect(chunksToRelease(n)).toBeGreaterThanOrEqual(n / MAX_BACKLOG_TICKS);
    }
    expect(chunksToRelease(3)).toBeLessThanOrEqual(3);
  });
});

describe('specChunksToRelease (the bench compares the app with it)', () => {
  it('is spec §9 alone: 1, 2, 4 or 8 chunks, never more than are queued', () => {
    expect([0, 1, 3, 5, 6, 50, 51, 100, 101, 5000].map(specChunksToRelease)).toEqual([0, 1, 1, 1, 2, 2, 4, 4, 8, 8]);
  });
});

describe('OutputBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('releases nothing before the first tick and one chunk per tick for a short queue', () => {
    const released: string[] = [];
    const batcher = new OutputBatcher((text) => released.push(text));
    batcher.push('a');
    batcher.push('b');
    expect(released).toEqual([]);
    vi.advanceTimersByTime(STREAM_TICK_MS);
    expect(released).toEqual(['a']);
    vi.advanceTimersByTime(STREAM_TICK_MS);
    expect(released).toEqual(['a', 'b']);
    expect(batcher.pending).toBe(0);
  });

  it('keeps up with a 500 chunks/s stream: the backlog stays bounded', () => {
    let shown = '';
    const batcher = new OutputBatcher((text) => (shown += text));
    let sent = 0;
    // 25 chunks arrive per 50 ms tick for 10 seconds.
    for (let tick = 0; tick < 200; tick++) {
      for (let i = 0; i < 25; i++) batcher.push(String(sent++ % 10));
      vi.advanceTimersByTime(STREAM_TICK_MS);
      expect(batcher.pending).toBeLessThanOrEqual(25 * MAX_BACKLOG_TICKS);
    }
    vi.advanceTimersByTime(STREAM_TICK_MS * 40);
    expect(shown.length).toBe(sent);
  });

  it('stops its timer when idle and after dispose', () => {
    const onRelease = vi.fn();
    const batcher = new OutputBatcher(onRelease);
    batcher.push('x');
    vi.advanceTimersByTime(STREAM_TICK_MS * 3);
    expect(onRelease).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    batcher.push('y');
    batcher.dispose();
    vi.advanceTimersByTime(STREAM_TICK_MS * 3);
    expect(onRelease).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

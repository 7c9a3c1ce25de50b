import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STREAM_TICK_MS } from '../../../../shared/domain/chat';
import { OutputBatcher } from './outputBatcher';

/** One frame at 60 Hz: the fake clock draws a frame every 16 ms. */
const FRAME_MS = 16;

describe('OutputBatcher', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('shows the first chunk of an answer on the next frame, without waiting for a tick', () => {
    const released: string[] = [];
    const batcher = new OutputBatcher((text) => released.push(text));
    batcher.push('Hel');
    expect(released).toEqual([]);
    vi.advanceTimersByTime(FRAME_MS);
    expect(released).toEqual(['Hel']);
  });

  it('shows the chunks of one tick together, all of them, on the first frame after the tick', () => {
    const released: string[] = [];
    const batcher = new OutputBatcher((text) => released.push(text));
    batcher.push('a');
    vi.advanceTimersByTime(FRAME_MS);
    for (const chunk of ['b', 'c', 'd', 'e', 'f', 'g', 'h']) batcher.push(chunk);
    vi.advanceTimersByTime(STREAM_TICK_MS - FRAME_MS - 1);
    expect(released).toEqual(['a']);
    vi.advanceTimersByTime(FRAME_MS + 1 + FRAME_MS);
    expect(released).toEqual(['a', 'bcdefgh']);
    expect(batcher.pending).toBe(0);
  });

  it('keeps a 500 chunks/s stream within a tick and a frame of arrival, releasing at most once per tick', () => {
    let shown = '';
    let releases = 0;
    const batcher = new OutputBatcher((text) => {
      shown += text;
      releases += 1;
    });
    let sent = '';
    // One chunk every 2 ms for 10 seconds.
    for (let ms = 0; ms < 10_000; ms += 2) {
      const chunk = String((ms / 2) % 10);
      sent += chunk;
      batcher.push(chunk);
      vi.advanceTimersByTime(2);
      expect(sent.length - shown.length).toBeLessThanOrEqual((STREAM_TICK_MS + 2 * FRAME_MS) / 2);
    }
    expect(releases).toBeLessThanOrEqual(10_000 / STREAM_TICK_MS);
    vi.advanceTimersByTime(STREAM_TICK_MS + 2 * FRAME_MS);
    expect(shown).toBe(sent);
  });

  it('still releases when the page draws no frames (a hidden tab)', () => {
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    const onRelease = vi.fn();
    const batcher = new OutputBatcher(onRelease);
    batcher.push('x');
    vi.advanceTimersByTime(1_000);
    expect(onRelease).toHaveBeenCalledWith('x');
    vi.mocked(window.requestAnimationFrame).mockRestore();
  });

  it('schedules nothing when idle and after dispose', () => {
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

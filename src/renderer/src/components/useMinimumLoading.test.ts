import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useMinimumLoading } from './useMinimumLoading';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('skeleton minimum display', () => {
  it('keeps the skeleton for 2000 ms even when data arrives at once', () => {
    const { result, rerender } = renderHook(({ loading }) => useMinimumLoading(loading), { initialProps: { loading: true } });
    act(() => {
      vi.advanceTimersByTime(100);
    });
    rerender({ loading: false });
    expect(result.current).toBe(true);

    act(() => {
      vi.advanceTimersByTime(1850);
    });
    expect(result.current).toBe(true);
    act(() => {
      vi.advanceTimersByTime(60);
    });
    expect(result.current).toBe(false);
  });

  it('hides it as soon as loading ends when loading itself took longer', () => {
    const { result, rerender } = renderHook(({ loading }) => useMinimumLoading(loading), { initialProps: { loading: true } });
    act(() => {
      vi.advanceTimersByTime(2500);
    });
    rerender({ loading: false });
    expect(result.current).toBe(false);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { LIST_SEARCH_DELAY_MS, useListSearchBox } from './useListSearchParams';

afterEach(() => vi.useRealTimers());

describe('list search box', () => {
  it('keeps the keys typed after the debounce fired when the URL catches up late, and follows Back', () => {
    vi.useFakeTimers();
    const setListParams = vi.fn();
    const { result, rerender } = renderHook(({ search }) => useListSearchBox(search, setListParams), { initialProps: { search: '' } });

    act(() => result.current.typeSearch('a'));
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    expect(setListParams).toHaveBeenLastCalledWith({ search: 'a' });
    // The next key lands before the router has rendered the URL with "a".
    act(() => result.current.typeSearch('ad'));
    rerender({ search: 'a' });
    expect(result.current.query).toBe('ad');
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    expect(setListParams).toHaveBeenLastCalledWith({ search: 'ad' });
    rerender({ search: 'ad' });
    expect(result.current.query).toBe('ad');

    // Back to the earlier URL: the box shows its search.
    rerender({ search: 'a' });
    expect(result.current.query).toBe('a');
  });

  it('keeps a space typed after a word when the trimmed URL catches up', () => {
    vi.useFakeTimers();
    const setListParams = vi.fn();
    const { result, rerender } = renderHook(({ search }) => useListSearchBox(search, setListParams), { initialProps: { search: '' } });
    act(() => result.current.typeSearch('two '));
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    rerender({ search: 'two' });
    expect(result.current.query).toBe('two ');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, renderHook } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { z } from 'zod';
import { LIST_SEARCH_DELAY_MS, type ListState, useListState, useSearchBox } from './useListState';

afterEach(() => vi.useRealTimers());

const FILTERS = z.object({
  type: z.enum(['all', 'registration', 'group_change']).default('all'),
  group: z.coerce.number().int().positive().optional(),
});
const ORDER = z.enum(['created_at.desc', 'email.asc']).default('created_at.desc');

/** Renders the hook on a router at `url`; `current()` is what it returned last. */
function renderListState(url: string) {
  let state: ListState<z.output<typeof FILTERS>, z.output<typeof ORDER>> | undefined;
  function Probe() {
    state = useListState({ size: 10, filters: FILTERS, order: ORDER });
    return null;
  }
  const router = createMemoryRouter([{ path: '/', element: <Probe /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return { router, current: () => state!, query: () => new URLSearchParams(router.state.location.search) };
}

describe('list state in the URL', () => {
  it('reads page, size, search, order and the filters, each with its default when absent', () => {
    const { current } = renderListState('/');
    expect(current()).toMatchObject({ page: 1, size: 10, search: '', order: 'created_at.desc', filters: { type: 'all', group: undefined }, isFiltered: false });

    const given = renderListState('/?page=3&size=25&search=ada&order=email.asc&type=registration&group=7');
    expect(given.current()).toMatchObject({
      page: 3,
      size: 25,
      search: 'ada',
      order: 'email.asc',
      filters: { type: 'registration', group: 7 },
      isFiltered: true,
    });
  });

  it('reads a value its schema refuses as the default, never failing', () => {
    const { current } = renderListState('/?page=-2&size=lots&order=nonsense&type=everything&group=abc');
    expect(current()).toMatchObject({ page: 1, size: 10, order: 'created_at.desc', filters: { type: 'all', group: undefined }, isFiltered: false });
    expect(renderListState('/?page=1.5&type=').current()).toMatchObject({ page: 1, filters: { type: 'all' } });
  });

  it('changes several filters in one history entry, so one Back undoes them together', async () => {
    const { router, current, query } = renderListState('/?type=registration&size=10');
    act(() => current().setFilters({ type: 'group_change', group: 7 }));
    expect(Object.fromEntries(query())).toEqual({ page: '1', size: '10', type: 'group_change', group: '7' });
    act(() => current().setFilters({ group: null }));
    expect(Object.fromEntries(query())).toEqual({ page: '1', size: '10', type: 'group_change' });
    await act(() => router.navigate(-1));
    await act(() => router.navigate(-1));
    expect(Object.fromEntries(query())).toEqual({ type: 'registration', size: '10' });
  });

  it('keeps a filter written before its navigation rendered when the next change comes (a busy machine)', () => {
    const { current, query } = renderListState('/?size=10');
    // Both writes see the same render, as a search typed right after a filter can on a loaded machine.
    const { setFilter, setOrder } = current();
    act(() => {
      setFilter('type', 'registration');
      setOrder('email.asc');
    });
    expect(Object.fromEntries(query())).toEqual({ page: '1', size: '10', type: 'registration', order: 'email.asc' });
  });

  it('pushes every change as a new history entry, so Back restores the view before it', async () => {
    const { router, current, query } = renderListState('/?page=2&size=10');
    act(() => current().setPage(3));
    expect(router.state.historyAction).toBe('PUSH');
    expect(current().page).toBe(3);

    // A filter or an order starts again at page 1 and keeps the size.
    act(() => current().setFilter('type', 'registration'));
    expect(router.state.historyAction).toBe('PUSH');
    expect(Object.fromEntries(query())).toEqual({ page: '1', size: '10', type: 'registration' });
    act(() => current().setOrder('email.asc'));
    expect(query().get('order')).toBe('email.asc');
    expect(query().get('page')).toBe('1');

    await act(() => router.navigate(-1));
    expect(current()).toMatchObject({ order: 'created_at.desc', filters: { type: 'registration' } });
    await act(() => router.navigate(-1));
    expect(current()).toMatchObject({ page: 3, filters: { type: 'all' } });
    await act(() => router.navigate(-1));
    expect(current().page).toBe(2);
  });

  it('removes a filter set to nothing, and clears search and filters together (not the order)', () => {
    const { current, query } = renderListState('/?type=registration&group=4&search=ada&order=email.asc&page=3');
    act(() => current().setFilter('group', null));
    expect(query().has('group')).toBe(false);
    act(() => current().clearFilters());
    expect(Object.fromEntries(query())).toEqual({ order: 'email.asc', page: '1', size: '10' });
    expect(current().isFiltered).toBe(false);
  });

  it('writes what is typed in the search box once typing pauses, trimmed, from page 1; Back puts the earlier search in the box', async () => {
    vi.useFakeTimers();
    const { router, current, query } = renderListState('/?page=4');
    act(() => current().searchBox.type('gr'));
    act(() => current().searchBox.type('grace '));
    expect(current().searchBox.value).toBe('grace ');
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS - 1);
    });
    expect(query().has('search')).toBe(false);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(Object.fromEntries(query())).toEqual({ search: 'grace', page: '1', size: '10' });
    expect(current().searchBox.value).toBe('grace ');

    await act(() => router.navigate(-1));
    expect(current().searchBox.value).toBe('');
  });

  it('drops a search still waiting for its debounce when the filters are cleared', () => {
    vi.useFakeTimers();
    const { current, query } = renderListState('/?type=registration');
    act(() => current().searchBox.type('late'));
    act(() => current().clearFilters());
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    expect(query().has('search')).toBe(false);
    expect(current().searchBox.value).toBe('');
  });
});

describe('list search box', () => {
  it('keeps the keys typed after the debounce fired when the URL catches up late, and follows Back', () => {
    vi.useFakeTimers();
    const writeSearch = vi.fn();
    const { result, rerender } = renderHook(({ search }) => useSearchBox(search, writeSearch), { initialProps: { search: '' } });

    act(() => result.current.type('a'));
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    expect(writeSearch).toHaveBeenLastCalledWith('a');
    // The next key lands before the router has rendered the URL with "a".
    act(() => result.current.type('ad'));
    rerender({ search: 'a' });
    expect(result.current.value).toBe('ad');
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    expect(writeSearch).toHaveBeenLastCalledWith('ad');
    rerender({ search: 'ad' });
    expect(result.current.value).toBe('ad');

    // Back to the earlier URL: the box shows its search.
    rerender({ search: 'a' });
    expect(result.current.value).toBe('a');
  });

  it('keeps a space typed after a word when the trimmed URL catches up', () => {
    vi.useFakeTimers();
    const writeSearch = vi.fn();
    const { result, rerender } = renderHook(({ search }) => useSearchBox(search, writeSearch), { initialProps: { search: '' } });
    act(() => result.current.type('two '));
    act(() => {
      vi.advanceTimersByTime(LIST_SEARCH_DELAY_MS);
    });
    rerender({ search: 'two' });
    expect(result.current.value).toBe('two ');
  });
});

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

function positiveInt(value: string | null, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/**
 * Page, size and search of a list page kept in the URL (spec §2). Every change is a new history
 * entry, so Back restores the previous view; a new size or search starts again at page 1.
 */
export function useListSearchParams(defaultSize: number) {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = positiveInt(searchParams.get('page'), 1);
  const size = positiveInt(searchParams.get('size'), defaultSize);
  const search = searchParams.get('search') ?? '';

  const update = useCallback(
    (patch: { page?: number; size?: number; search?: string }) => {
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        const resetsPage = patch.size !== undefined || patch.search !== undefined;
        if (patch.size !== undefined) next.set('size', String(patch.size));
        if (patch.search !== undefined) {
          if (patch.search) next.set('search', patch.search);
          else next.delete('search');
        }
        next.set('page', String(resetsPage ? 1 : (patch.page ?? 1)));
        if (!next.has('size')) next.set('size', String(defaultSize));
        return next;
      });
    },
    [setSearchParams, defaultSize],
  );

  return { page, size, search, setListParams: update };
}

/** Spec §2: a list's search box changes the URL 300 ms after the last keystroke. */
export const LIST_SEARCH_DELAY_MS = 300;

/**
 * The search box of a list kept in the URL (`useListSearchParams`): what is typed shows at once,
 * the URL follows after the debounce, and Back or Forward put the URL's search back in the box.
 */
export function useListSearchBox(search: string, setListParams: (patch: { search: string }) => void) {
  const [query, setQuery] = useState(search);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The router's setter patches the URL it was made with: the debounce must use the latest one, or
  // a filter changed meanwhile would come back with the search.
  const latestSetListParams = useRef(setListParams);
  useEffect(() => {
    latestSetListParams.current = setListParams;
  }, [setListParams]);
  // The search this box last wrote to the URL, until the URL has it.
  const written = useRef<string | null>(null);
  useEffect(() => {
    // The URL caught up with what was typed: keep what has been typed since (on a slow machine the
    // next keys can land before it does), and a space being typed after a word (the URL is trimmed).
    const ownWrite = written.current === search;
    written.current = null;
    if (!ownWrite) setQuery((current) => (current.trim() === search ? current : search));
  }, [search]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const typeSearch = useCallback((value: string) => {
    setQuery(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      written.current = value.trim();
      latestSetListParams.current({ search: value.trim() });
    }, LIST_SEARCH_DELAY_MS);
  }, []);
  /** Empties the box and drops a pending search, for a caller that clears the URL's search itself. */
  const clearSearchBox = useCallback(() => {
    clearTimeout(timer.current);
    setQuery('');
  }, []);
  return { query, typeSearch, clearSearchBox };
}

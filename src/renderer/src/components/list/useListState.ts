import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { z } from 'zod';

/** Spec §9: a list's search box changes the URL 300 ms after the last keystroke. */
export const LIST_SEARCH_DELAY_MS = 300;

const PAGE = z.coerce.number().int().positive().default(1);
const NO_FILTERS = z.object({});

/**
 * One URL parameter read with its schema: absent or empty is `undefined`, and a value the schema
 * refuses (a hand-edited or outdated link) reads as the schema's default, never an error.
 */
function readParam<T extends z.ZodType>(schema: T, raw: string | null): z.output<T> {
  const parsed = schema.safeParse(raw === null || raw === '' ? undefined : raw);
  return (parsed.success ? parsed.data : schema.safeParse(undefined).data) as z.output<T>;
}

/** A list parameter's value as URL text; nothing (or empty text) removes the parameter. */
function writeParam(params: URLSearchParams, name: string, value: unknown) {
  if (value === null || value === undefined || value === '') params.delete(name);
  else params.set(name, String(value));
}

/** What `useListState` returns; the list parts take it whole. */
export interface ListState<Filters = object, Order = undefined> {
  page: number;
  size: number;
  /** The URL's search (trimmed); the box may show more while the debounce runs. */
  search: string;
  order: Order;
  filters: Filters;
  /** A search or a filter other than its default narrows the list (its empty text says "no match"). */
  isFiltered: boolean;
  setPage: (page: number) => void;
  setOrder: (order: Order) => void;
  setFilter: <K extends keyof Filters & string>(key: K, value: Filters[K] | null) => void;
  /** Several filters in one history entry: a key absent from `values` stays, a null one is removed. */
  setFilters: (values: { [K in keyof Filters]?: Filters[K] | null }) => void;
  clearFilters: () => void;
  searchBox: { value: string; type: (value: string) => void };
}

interface ListStateOptions<F extends z.ZodObject, O extends z.ZodType> {
  /** The page size when the URL names none. */
  size: number;
  /** The list's filters, one URL parameter each: every field has a default or is optional. */
  filters?: F;
  /** The list's order, URL parameter `order`, with its default. */
  order?: O;
}

/**
 * A list page's state kept in the URL (spec §2): `page`, `size`, `search`, `order` and the
 * filters a zod schema describes. Every change is a new history entry (pushed, never replaced),
 * so Back restores the previous view; any change but a new page starts again at page 1 (spec §9).
 * The search box shows what is typed at once and writes the URL after the debounce.
 */
export function useListState<F extends z.ZodObject = typeof NO_FILTERS, O extends z.ZodType = z.ZodUndefined>(
  options: ListStateOptions<F, O>,
): ListState<z.output<F>, z.output<O>> {
  const { size: defaultSize } = options;
  const filterSchema = options.filters ?? NO_FILTERS;
  const shape: Record<string, z.ZodType> = filterSchema.shape;
  const orderSchema = options.order;
  const [searchParams, setSearchParams] = useSearchParams();
  const page = readParam(PAGE, searchParams.get('page'));
  const size = readParam(PAGE.default(defaultSize), searchParams.get('size'));
  const search = searchParams.get('search') ?? '';
  const order = (orderSchema ? readParam(orderSchema, searchParams.get('order')) : undefined) as z.output<O>;
  const filterKeys = Object.keys(shape);
  const filters = Object.fromEntries(filterKeys.map((key) => [key, readParam(shape[key]!, searchParams.get(key))])) as z.output<F>;
  const isFiltered = search !== '' || filterKeys.some((key) => (filters as Record<string, unknown>)[key] !== readParam(shape[key]!, null));

  // The router renders a navigation in a transition, so a write can come before the previous one has
  // rendered (a filter chosen, then a search typed on a busy machine): each write builds on the last
  // one, not on the parameters this render saw, or the filter would be dropped from the URL.
  const latestParams = useRef(searchParams);
  useEffect(() => {
    latestParams.current = searchParams;
  }, [searchParams]);
  /** Every write goes through here: one pushed history entry, the page given or 1, the size kept. */
  const write = useCallback(
    (edit: (params: URLSearchParams) => void, nextPage = 1) => {
      const next = new URLSearchParams(latestParams.current);
      edit(next);
      next.set('page', String(nextPage));
      if (!next.has('size')) next.set('size', String(defaultSize));
      latestParams.current = next;
      setSearchParams(next);
    },
    [setSearchParams, defaultSize],
  );
  const setPage = useCallback((next: number) => write(() => undefined, next), [write]);
  const setOrder = useCallback((next: z.output<O>) => write((params) => writeParam(params, 'order', next)), [write]);
  const setFilters = useCallback(
    (values: Record<string, unknown>) =>
      write((params) => {
        for (const [key, value] of Object.entries(values)) writeParam(params, key, value);
      }),
    [write],
  );
  const setFilter = useCallback((key: string, value: unknown) => setFilters({ [key]: value }), [setFilters]);
  const writeSearch = useCallback((value: string) => write((params) => writeParam(params, 'search', value)), [write]);
  const box = useSearchBox(search, writeSearch);
  const { clear: clearBox } = box;
  /** Drops the search and every filter (the order stays). */
  const clearFilters = useCallback(() => {
    clearBox();
    write((params) => {
      for (const key of [...Object.keys(filterSchema.shape), 'search']) params.delete(key);
    });
  }, [clearBox, write, filterSchema]);

  return {
    page,
    size,
    search,
    order,
    filters,
    isFiltered,
    setPage,
    setOrder,
    setFilter,
    setFilters,
    clearFilters,
    searchBox: { value: box.value, type: box.type },
  };
}

/**
 * The search box of a list kept in the URL: what is typed shows at once, the URL follows after
 * the debounce, and Back or Forward put the URL's search back in the box. Exported for its test.
 */
export function useSearchBox(search: string, writeSearch: (value: string) => void) {
  const [value, setValue] = useState(search);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The writer given may change from one render to the next: the debounce calls the latest one.
  const latestWriteSearch = useRef(writeSearch);
  useEffect(() => {
    latestWriteSearch.current = writeSearch;
  }, [writeSearch]);
  // The search this box last wrote to the URL, until the URL has it.
  const written = useRef<string | null>(null);
  useEffect(() => {
    // The URL caught up with what was typed: keep what has been typed since (on a slow machine the
    // next keys can land before it does), and a space being typed after a word (the URL is trimmed).
    const ownWrite = written.current === search;
    written.current = null;
    if (!ownWrite) setValue((current) => (current.trim() === search ? current : search));
  }, [search]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const type = useCallback((next: string) => {
    setValue(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      written.current = next.trim();
      latestWriteSearch.current(next.trim());
    }, LIST_SEARCH_DELAY_MS);
  }, []);
  /** Empties the box and drops a pending search, for a caller that clears the URL's search itself. */
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setValue('');
  }, []);
  return { value, type, clear };
}

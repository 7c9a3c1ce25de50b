import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AdminMemberQuery } from '../../../api/adminMembers';

/** The list's filters kept in the URL beside page, size and search (spec §2), by their query names. */
export const FILTER_KEYS = ['member_group_id', 'member_status', 'is_admin', 'member_type', 'has_sso'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The filters of the URL as the list endpoint's query (the server validates the values). */
export function useMemberFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const values = Object.fromEntries(FILTER_KEYS.map((key) => [key, searchParams.get(key)])) as Record<FilterKey, string | null>;
  const query = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== '')) as Partial<AdminMemberQuery>;
  // A new filter starts again at page 1, as a new search does.
  const setFilter = useCallback(
    (key: FilterKey, value: string | null) =>
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        next.set('page', '1');
        return next;
      }),
    [setSearchParams],
  );
  return { values, query, setFilter };
}

import { useCallback } from 'react';
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

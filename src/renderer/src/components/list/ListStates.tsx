import type { ReactNode } from 'react';
import { Skeleton, Stack, Text } from '@mantine/core';
import type { Endpoint } from '../../../../shared/api/endpoint';
import { QueryError } from '../QueryError';
import { ListPagination } from './ListParts';
import type { ListState } from './useListState';

/** What ListStates reads of a TanStack query of a page of items. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  data?: { items: readonly unknown[]; total_pages?: number };
}

interface ListStatesProps {
  /** The list's query: no rows on its page shows `empty`. */
  query: ListQuery;
  /** The list's endpoint: a failed load shows its message for the error. */
  endpoint: Endpoint;
  empty: ReactNode;
  /** Shown instead of `empty` when the list's search or filters narrow it. */
  noMatch?: ReactNode;
  emptyTestId?: string;
  errorTestId?: string;
  /** Height of the three skeleton rows (px). */
  rowHeight?: number;
  /** The list's URL state: its page numbers go under it (from the query's `total_pages`), and it says whether the list is narrowed. */
  list?: Pick<ListState, 'page' | 'setPage' | 'isFiltered'>;
  /** The list itself, rendered only once there are rows. */
  children: () => ReactNode;
}

/**
 * What every list screen shows around its table: three skeleton rows while loading, the error
 * with Retry, the empty (or no-match) text, else the list; under it, the page numbers.
 */
export function ListStates({ list, empty, noMatch = empty, ...props }: ListStatesProps) {
  return (
    <>
      <ListBody {...props} empty={list?.isFiltered ? noMatch : empty} />
      {list && <ListPagination list={list} totalPages={props.query.data?.total_pages} />}
    </>
  );
}

function ListBody({ query, endpoint, empty, emptyTestId, errorTestId, rowHeight = 44, children }: Omit<ListStatesProps, 'list' | 'noMatch'>) {
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} h={rowHeight} radius="md" />
        ))}
      </Stack>
    );
  }
  if (query.isError) {
    return <QueryError query={query} endpoint={endpoint} testId={errorTestId} />;
  }
  if (!query.data?.items.length) {
    return (
      <Text c="dimmed" py="xl" ta="center" data-testid={emptyTestId}>
        {empty}
      </Text>
    );
  }
  return children();
}

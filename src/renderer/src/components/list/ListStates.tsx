import type { ReactNode } from 'react';
import { Alert, Button, Skeleton, Stack, Text } from '@mantine/core';

/** What ListStates reads of a TanStack query. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface ListStatesProps {
  query: ListQuery;
  /** Rows on this page: 0 shows `empty`. */
  count: number;
  /** The error's message (the page's error table and namespace). */
  errorTitle: (error: unknown) => string;
  retryLabel: string;
  empty: ReactNode;
  emptyTestId?: string;
  errorTestId?: string;
  /** Height of the three skeleton rows (px). */
  rowHeight?: number;
  /** The list itself, rendered only once there are rows. */
  children: () => ReactNode;
}

/**
 * What every list screen shows around its table: three skeleton rows while loading, the error
 * with Retry, the empty (or no-match) text, else the list.
 */
export function ListStates({ query, count, errorTitle, retryLabel, empty, emptyTestId, errorTestId, rowHeight = 44, children }: ListStatesProps) {
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
    return (
      <Alert color="red" title={errorTitle(query.error)} data-testid={errorTestId}>
        <Button size="xs" variant="default" onClick={() => void query.refetch()}>
          {retryLabel}
        </Button>
      </Alert>
    );
  }
  if (count === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center" data-testid={emptyTestId}>
        {empty}
      </Text>
    );
  }
  return children();
}


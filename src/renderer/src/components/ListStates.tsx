import type { ReactNode } from 'react';
import { Alert, Button, Checkbox, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

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

interface SelectAllCheckboxProps {
  /** The ids this page's rows offer for selection. */
  ids: number[];
  selected: number[];
  onChange: (next: number[]) => void;
  label: string;
  disabled?: boolean;
}

/** A selectable table's header checkbox: every offered row, some (indeterminate), or none. */
export function SelectAllCheckbox({ ids, selected, onChange, label, disabled }: SelectAllCheckboxProps) {
  const all = ids.length > 0 && ids.every((id) => selected.includes(id));
  return <Checkbox aria-label={label} checked={all} indeterminate={!all && selected.length > 0} disabled={disabled} onChange={() => onChange(all ? [] : ids)} />;
}

interface RowCheckboxProps {
  id: number;
  selected: number[];
  onChange: (update: (current: number[]) => number[]) => void;
  label: string;
  disabled?: boolean;
}

/** A selectable table's row checkbox: adds or removes its row's id. */
export function RowCheckbox({ id, selected, onChange, label, disabled }: RowCheckboxProps) {
  return (
    <Checkbox
      aria-label={label}
      disabled={disabled}
      checked={selected.includes(id)}
      onChange={(event) => {
        const { checked } = event.currentTarget;
        onChange((current) => (checked ? [...current, id] : current.filter((other) => other !== id)));
      }}
    />
  );
}

/**
 * A list's page numbers under it, only when there is more than one page; every control is named
 * for screen readers (Mantine's previous and next arrows have no text).
 */
export function ListPagination({ totalPages, page, onChange, mt = 'md' }: { totalPages: number | undefined; page: number; onChange: (page: number) => void; mt?: string }) {
  const { t } = useTranslation('common');
  if ((totalPages ?? 0) <= 1) return null;
  return (
    <Group justify="center" mt={mt} component="nav" aria-label={t('pagination.label')}>
      <Pagination
        total={totalPages!}
        value={page}
        onChange={onChange}
        getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('pagination.page', { page: item }), 'aria-current': item === page ? 'page' : undefined })}
      />
    </Group>
  );
}

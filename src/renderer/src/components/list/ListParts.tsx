import type { ReactNode } from 'react';
import { Button, Checkbox, Group, Pagination, Select, Table, Text, TextInput, VisuallyHidden, type TableProps, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { scrollRegionProps } from '../scrollRegion';
import type { ListState } from './useListState';

/**
 * The parts a list page is built from, around `useListState` and `ListStates`:
 * `ListToolbar` (search, filters, the page's action) with `ListFilters`, `ListSearchInput`,
 * `ListOrderSelect` and `ListClearFilters`, `BulkActions`,
 * `ListTable` with `SelectAllHeader`, `RowSelectCell` and `ActionsHeader`, and `ListPagination` under it.
 */

/** The row above a list: search and filters on one side, the page's action on the other. */
export function ListToolbar({ mb = 'md', children }: { mb?: string; children: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb={mb} gap="sm">
      {children}
    </Group>
  );
}

/** The toolbar's side that holds the search and the filters, wrapping on a narrow screen. */
export function ListFilters({ children }: { children: ReactNode }) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" style={{ flex: '1 1 320px' }}>
      {children}
    </Group>
  );
}

interface ListOrderSelectProps<Order extends string> {
  list: Pick<ListState<object, Order>, 'order' | 'setOrder'>;
  orders: readonly Order[];
  label: string;
  optionLabel: (order: Order) => string;
  /** Called with the new order before the URL takes it (e.g. to drop a selection). */
  onOrder?: (order: Order) => void;
}

/** The list's order: one of `orders`, in the URL as `order`. */
export function ListOrderSelect<Order extends string>({ list, orders, label, optionLabel, onOrder }: ListOrderSelectProps<Order>) {
  return (
    <Select
      label={label}
      value={list.order}
      onChange={(value) => {
        onOrder?.(value as Order);
        list.setOrder(value as Order);
      }}
      allowDeselect={false}
      data={orders.map((value) => ({ value, label: optionLabel(value) }))}
      w={{ base: '100%', sm: 200 }}
    />
  );
}

/** The list's search box: what is typed shows at once, the URL's `search` follows after the debounce. */
export function ListSearchInput({ list, ...props }: { list: Pick<ListState, 'searchBox'> } & Omit<TextInputProps, 'value' | 'onChange' | 'list'>) {
  return <TextInput value={list.searchBox.value} onChange={(event) => list.searchBox.type(event.currentTarget.value)} {...props} />;
}

/** "Clear filters", shown while a search or a filter narrows the list: drops them all (the order stays). */
export function ListClearFilters({ list }: { list: Pick<ListState, 'isFiltered' | 'clearFilters'> }) {
  const { t } = useTranslation('common');
  if (!list.isFiltered) return null;
  return (
    <Button variant="subtle" onClick={list.clearFilters}>
      {t('list.clear_filters')}
    </Button>
  );
}

interface ListTableProps extends Omit<TableProps, 'children'> {
  /** Below this width the table scrolls sideways rather than squeezing its columns. */
  minWidth: number;
  /** A table of a page that has a link or button nowhere else near it: its scrolling box is a named, focusable region. */
  scrollRegion?: string;
  /** The header cells. */
  head: ReactNode;
  /** The rows. */
  children: ReactNode;
  'data-testid'?: string;
}

/** A list's table: one header row, the rows, sideways scrolling on a narrow screen. */
export function ListTable({ minWidth, scrollRegion, head, children, ...table }: ListTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} {...(scrollRegion === undefined ? {} : scrollRegionProps(scrollRegion))}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The header cell of a row-actions column: named for screen readers, empty on screen. */
export function ActionsHeader({ label }: { label: string }) {
  return (
    <Table.Th>
      <VisuallyHidden>{label}</VisuallyHidden>
    </Table.Th>
  );
}

interface SelectAllHeaderProps {
  /** The ids this page's rows offer for selection. */
  ids: number[];
  selected: number[];
  onChange: (next: number[]) => void;
  label: string;
  disabled?: boolean;
}

/** A selectable table's first header cell: every offered row, some (indeterminate), or none. */
export function SelectAllHeader({ ids, selected, onChange, label, disabled }: SelectAllHeaderProps) {
  const all = ids.length > 0 && ids.every((id) => selected.includes(id));
  return (
    <Table.Th w={40}>
      <Checkbox aria-label={label} checked={all} indeterminate={!all && selected.length > 0} disabled={disabled} onChange={() => onChange(all ? [] : ids)} />
    </Table.Th>
  );
}

interface RowSelectCellProps {
  id: number;
  selected: number[];
  onChange: (update: (current: number[]) => number[]) => void;
  label: string;
  disabled?: boolean;
}

/** A selectable table's first cell of a row: adds or removes its row's id. */
export function RowSelectCell({ id, selected, onChange, label, disabled }: RowSelectCellProps) {
  return (
    <Table.Td>
      <Checkbox
        aria-label={label}
        disabled={disabled}
        checked={selected.includes(id)}
        onChange={(event) => {
          const { checked } = event.currentTarget;
          onChange((current) => (checked ? [...current, id] : current.filter((other) => other !== id)));
        }}
      />
    </Table.Td>
  );
}

/** What can be done with the selected rows, shown while some are selected: "n selected" and the buttons. */
export function BulkActions({ count, label, children }: { count: number; label: string; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <Group mb="sm" gap="sm" data-testid="bulk-actions">
      <Text size="sm">{label}</Text>
      {children}
    </Group>
  );
}

/**
 * A list's page numbers under it, only when there is more than one page; every control is named
 * for screen readers (Mantine's previous and next arrows have no text). A page is a new history entry.
 */
export function ListPagination({ list, totalPages, mt = 'md' }: { list: Pick<ListState, 'page' | 'setPage'>; totalPages: number | undefined; mt?: string }) {
  const { t } = useTranslation('common');
  if ((totalPages ?? 0) <= 1) return null;
  return (
    <Group justify="center" mt={mt} component="nav" aria-label={t('pagination.label')}>
      <Pagination
        total={totalPages!}
        value={list.page}
        onChange={list.setPage}
        getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
        getItemProps={(item) => ({ 'aria-label': t('pagination.page', { page: item }), 'aria-current': item === list.page ? 'page' : undefined })}
      />
    </Group>
  );
}

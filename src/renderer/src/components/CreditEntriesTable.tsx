import { scrollRegionProps } from './scrollRegion';
import { Anchor, Badge, Skeleton, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CreditEntry, Paginated } from '../../../shared/api';
import { useResolvedLanguage } from '../i18n/useLanguage';
import { useCreditFormat } from './useCreditFormat';
import { ListPagination } from './list/ListParts';
import type { ListState } from './list/useListState';

interface CreditEntriesTableProps {
  data: Paginated<CreditEntry> | undefined;
  isLoading: boolean;
  /** The page shown and the way to another (the list's URL state). */
  list: Pick<ListState, 'page' | 'setPage'>;
  /** The admin purchase history shows the price column. */
  showPrice?: boolean;
  caption: string;
}

/** Credit entries (spec §3): name, amount, used, validity, and the price when shown. */
export function CreditEntriesTable({ data, isLoading, list, showPrice = false, caption }: CreditEntriesTableProps) {
  const { t } = useTranslation('creditsPage');
  const language = useResolvedLanguage();
  const format = useCreditFormat();
  if (isLoading) return <Skeleton h={160} />;
  if (!data || data.items.length === 0) return <Text c="dimmed">{t('entries.empty')}</Text>;
  const validity = (entry: CreditEntry) =>
    entry.usage_start_date && entry.usage_end_date
      ? t('entries.validity_range', { start: entry.usage_start_date, end: entry.usage_end_date })
      : t('entries.no_end');
  return (
    <>
      <Table.ScrollContainer minWidth={560} {...scrollRegionProps(caption)}>
        <Table striped data-testid="credit-entries">
          <Table.Caption>
            <VisuallyHidden>{caption}</VisuallyHidden>
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('entries.name')}</Table.Th>
              <Table.Th ta="right">{t('entries.amount')}</Table.Th>
              <Table.Th ta="right">{t('entries.used')}</Table.Th>
              <Table.Th>{t('entries.date')}</Table.Th>
              <Table.Th>{t('entries.validity')}</Table.Th>
              {showPrice && <Table.Th ta="right">{t('entries.price')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>
                  {(language === 'ko' ? entry.ko_name : entry.en_name) ?? t('entries.unnamed')}{' '}
                  {entry.expired && (
                    <Badge size="xs" color="gray" variant="light">
                      {t('entries.expired')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">{format.credits(entry.quota)}</Table.Td>
                <Table.Td ta="right">{format.credits(entry.usage)}</Table.Td>
                <Table.Td>{format.date(entry.created_at)}</Table.Td>
                <Table.Td>{validity(entry)}</Table.Td>
                {showPrice && (
                  <Table.Td ta="right">
                    {entry.transaction ? (
                      entry.transaction.receipt_url ? (
                        <Anchor href={entry.transaction.receipt_url} target="_blank" rel="noreferrer">
                          {format.money(entry.transaction.price, entry.transaction.currency)}
                        </Anchor>
                      ) : (
                        format.money(entry.transaction.price, entry.transaction.currency)
                      )
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination list={list} totalPages={data.total_pages} />
    </>
  );
}

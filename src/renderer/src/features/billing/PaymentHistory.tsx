import { scrollRegionProps } from '../../components/scrollRegion';
import { Alert, Anchor, Badge, EmptyState, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../../../shared/api';
import { PAYMENTS_PAGE_SIZE } from '../../../../shared/domain/billing';
import { errorMessageKey } from '../../api/errorMessages';
import { keepPreviousData } from '@tanstack/react-query';
import { useEndpointQuery } from '../../api/endpointHooks';
import { useListState } from '../../components/list/useListState';
import { ListPagination } from '../../components/list/ListParts';
import { formatDate } from '../../i18n/formatDate';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { formatCredits, formatDay, formatKrw, planName } from './format';
import { messageText } from '../../i18n/keys';

const STATUS_COLORS = { paid: 'teal', failed: 'red', pending: 'gray' } as const;

/** Purchase history (spec §3 Credit purchase): each payment with its credits, validity and receipt; page and size in the URL. */
export function PaymentHistory() {
  const { t } = useTranslation('billing');
  const language = useResolvedLanguage();
  const listState = useListState({ size: PAYMENTS_PAGE_SIZE });
  const list = useEndpointQuery(billingApi.listPayments, { query: { page: listState.page, size: listState.size } }, { placeholderData: keepPreviousData });
  if (list.isPending) return <Skeleton h={120} />;
  if (list.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {messageText(errorMessageKey(list.error, billingApi.listPayments))}
      </Alert>
    );
  }
  if (list.data.total_items === 0) return <EmptyState title={t('history.empty')} description={t('history.empty_hint')} variant="light" />;
  return (
    <Stack gap="md">
      <Table.ScrollContainer minWidth={640} {...scrollRegionProps(t('history.title'))}>
        <Table verticalSpacing="sm" data-testid="payment-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.date')}</Table.Th>
              <Table.Th>{t('history.plan')}</Table.Th>
              <Table.Th>{t('history.amount')}</Table.Th>
              <Table.Th>{t('history.credits')}</Table.Th>
              <Table.Th>{t('history.status')}</Table.Th>
              <Table.Th>{t('history.receipt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((payment) => (
              <Table.Tr key={payment.id}>
                <Table.Td>{formatDate(payment.created_at, language)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{planName(payment.plan, language)}</Text>
                  <Text size="xs" c="dimmed">
                    {t(`history.kind.${payment.kind}`)}
                  </Text>
                </Table.Td>
                <Table.Td>{formatKrw(payment.price, language)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{formatCredits(payment.credit, language)}</Text>
                  {payment.status === 'paid' && payment.usage_start_date && payment.usage_end_date && (
                    <Text size="xs" c="dimmed">
                      {t('history.validity', { start: formatDay(payment.usage_start_date, language), end: formatDay(payment.usage_end_date, language) })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[payment.status]} variant="light">
                    {t(`history.status_${payment.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {payment.receipt_url ? (
                    <Anchor href={payment.receipt_url} target="_blank" rel="noopener noreferrer" size="sm">
                      {t('history.view_receipt')}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination list={listState} totalPages={list.data.total_pages} mt="0" />
    </Stack>
  );
}

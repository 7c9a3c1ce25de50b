import { useState } from 'react';
import { Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { adminSsoWhitelistApi } from '../../../../../shared/api';
import { SSO_WHITELIST_DEFAULT_ORDER, SSO_WHITELIST_ORDERS, SSO_WHITELIST_PAGE_SIZE } from '../../../../../shared/domain/ssoWhitelist';
import { errorMessageKey } from '../../../api/errorMessages';
import { queryKeys } from '../../../api/queryKeys';
import { type WhitelistOrder, deleteWhitelistEntries, exportWhitelist, useSsoWhitelist } from '../../../api/ssoWhitelist';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { IconDownload } from '../../../components/icons';
import { saveBlob } from '../../../components/saveBlob';
import { showToast } from '../../../components/toast';
import { useListSearchBox, useListSearchParams } from '../../../components/useListSearchParams';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { WhitelistUploadCard } from './WhitelistUploadCard';
import { ListPagination, ListStates, RowCheckbox, SelectAllCheckbox } from '../../../components/ListStates';

const isOrder = (value: string | null): value is WhitelistOrder => SSO_WHITELIST_ORDERS.includes(value as WhitelistOrder);

/** Admin SSO whitelist (spec §2, §5, §7): add by paste or file, search, order, export, delete in bulk. */
export default function SsoWhitelistPage() {
  const { t } = useTranslation('ssoWhitelist');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const { page, size, search, setListParams } = useListSearchParams(SSO_WHITELIST_PAGE_SIZE);
  const { query, typeSearch } = useListSearchBox(search, setListParams);
  const [searchParams, setSearchParams] = useSearchParams();
  const orderParam = searchParams.get('order');
  const order: WhitelistOrder = isOrder(orderParam) ? orderParam : SSO_WHITELIST_DEFAULT_ORDER;
  const list = useSsoWhitelist(page, size, search, order);
  const [selected, setSelected] = useState<number[]>([]);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.ssoWhitelistAll });

  const remove = useMutation({
    mutationFn: (ids: number[]) => deleteWhitelistEntries(ids),
    onSuccess: (result) => showToast('success', t('deleted', { count: result.deleted })),
    onError: (error) => showToast('error', t(errorMessageKey(error, adminSsoWhitelistApi.bulkDeleteSsoWhitelist))),
    onSettled: () => {
      setSelected([]);
      setConfirmingDelete(false);
      return refresh();
    },
  });
  const download = useMutation({
    mutationFn: exportWhitelist,
    onSuccess: (blob) => saveBlob(blob, 'sso-whitelist.csv'),
    onError: (error) => showToast('error', t(errorMessageKey(error, adminSsoWhitelistApi.exportSsoWhitelist))),
  });

  const setOrder = (next: string | null) => {
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      params.set('order', next ?? SSO_WHITELIST_DEFAULT_ORDER);
      params.set('page', '1');
      return params;
    });
  };

  const items = list.data?.items ?? [];
  const pageIds = items.map((item) => item.id);
  const body = (
    <ListStates
      query={list}
      count={items.length}
      errorTitle={(error) => t(errorMessageKey(error, adminSsoWhitelistApi.listSsoWhitelist))}
      retryLabel={t('retry')}
      empty={search ? t('no_match') : t('empty')}
      rowHeight={40}
    >
      {() => (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs" data-testid="sso-whitelist">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <SelectAllCheckbox ids={pageIds} selected={selected} onChange={setSelected} label={t('select_all')} />
                </Table.Th>
                <Table.Th>{t('email')}</Table.Th>
                <Table.Th>{t('added_at')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id} data-testid="whitelist-row" data-email={item.email}>
                  <Table.Td>
                    <RowCheckbox id={item.id} selected={selected} onChange={setSelected} label={t('select_named', { email: item.email })} />
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.email}</Table.Td>
                  <Table.Td>{formatDate(item.created_at, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </ListStates>
  );

  return (
    <AdminPageFrame title={t('title')} description={t('description')} maw={960}>
      <WhitelistUploadCard onAdded={() => void refresh()} />
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap" style={{ flex: '1 1 320px' }}>
          <TextInput type="search" value={query} onChange={(event) => typeSearch(event.currentTarget.value)} placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 240 }} />
          <Select label={t('order')} value={order} onChange={setOrder} allowDeselect={false} data={SSO_WHITELIST_ORDERS.map((value) => ({ value, label: t(`orders.${value}`) }))} w={{ base: '100%', sm: 200 }} />
        </Group>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => download.mutate()} loading={download.isPending}>
          {t('export')}
        </Button>
      </Group>
      {selected.length > 0 && (
        <Group mb="sm" gap="sm" data-testid="bulk-actions">
          <Text size="sm">{t('selected', { count: selected.length })}</Text>
          <Button size="xs" color="red" variant="light" onClick={() => setConfirmingDelete(true)}>
            {t('delete_selected')}
          </Button>
        </Group>
      )}
      {body}
      <ListPagination totalPages={list.data?.total_pages} page={page} onChange={(next) => setListParams({ page: next })} />
      <ConfirmDialog
        opened={confirmingDelete}
        title={t('delete_title', { count: selected.length })}
        body={t('delete_body', { count: selected.length })}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() => remove.mutate(selected)}
      />
    </AdminPageFrame>
  );
}

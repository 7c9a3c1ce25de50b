import { useState } from 'react';
import { Button, Table } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminSsoWhitelistApi } from '../../../../../shared/api';
import { SSO_WHITELIST_DEFAULT_ORDER, SSO_WHITELIST_ORDERS, SSO_WHITELIST_PAGE_SIZE } from '../../../../../shared/domain/ssoWhitelist';
import { sendRaw } from '../../../api/client';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { IconDownload } from '../../../components/icons';
import { saveBlob } from '../../../components/saveBlob';
import { useListState } from '../../../components/list/useListState';
import { useBulkDelete } from '../../../components/list/useBulkDelete';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { WhitelistUploadCard } from './WhitelistUploadCard';
import { ListStates } from '../../../components/list/ListStates';
import { ListFilters, ListOrderSelect, ListSearchInput, ListTable, ListToolbar, RowSelectCell, SelectAllHeader } from '../../../components/list/ListParts';

const ORDER = z.enum(SSO_WHITELIST_ORDERS).default(SSO_WHITELIST_DEFAULT_ORDER);

/** Admin SSO whitelist (spec §2, §5, §7): add by paste or file, search, order, export, delete in bulk. */
export default function SsoWhitelistPage() {
  const { t } = useTranslation('ssoWhitelist');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: SSO_WHITELIST_PAGE_SIZE, order: ORDER });
  const { page, size, search, order } = listState;
  const list = useEndpointQuery(
    adminSsoWhitelistApi.listSsoWhitelist,
    { query: { page, size, order_by: order, search_term: search } },
    { placeholderData: keepPreviousData },
  );
  const [selected, setSelected] = useState<number[]>([]);
  const refresh = () => invalidateEndpoints(queryClient, [adminSsoWhitelistApi.listSsoWhitelist]);

  const bulkDelete = useBulkDelete({
    ns: 'ssoWhitelist',
    selected,
    endpoint: adminSsoWhitelistApi.bulkDeleteSsoWhitelist,
    toInput: (ids) => ({ body: { sso_member_whitelist_ids: ids } }),
    onSettled: () => {
      setSelected([]);
      return refresh();
    },
  });
  const download = useEndpointMutation(adminSsoWhitelistApi.exportSsoWhitelist, {
    // The whole list as the server's CSV file.
    send: async () => (await sendRaw(adminSsoWhitelistApi.exportSsoWhitelist, adminSsoWhitelistApi.exportSsoWhitelist.path)).blob(),
    onSuccess: (blob) => saveBlob(blob, 'sso-whitelist.csv'),
  });

  const items = list.data?.items ?? [];
  const pageIds = items.map((item) => item.id);
  return (
    <AdminPageFrame title={t('title')} description={t('description')} maw={960}>
      <WhitelistUploadCard onAdded={() => void refresh()} />
      <ListToolbar>
        <ListFilters>
          <ListSearchInput list={listState} type="search" placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 240 }} />
          <ListOrderSelect list={listState} orders={SSO_WHITELIST_ORDERS} label={t('order')} optionLabel={(value) => t(`orders.${value}`)} />
        </ListFilters>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => download.mutate()} loading={download.isPending}>
          {t('export')}
        </Button>
      </ListToolbar>
      {bulkDelete.actions}
      <ListStates query={list} list={listState} endpoint={adminSsoWhitelistApi.listSsoWhitelist} empty={t('empty')} noMatch={t('no_match')} rowHeight={40}>
        {() => (
          <ListTable
            minWidth={420}
            verticalSpacing="xs"
            data-testid="sso-whitelist"
            head={
              <>
                <SelectAllHeader ids={pageIds} selected={selected} onChange={setSelected} label={t('select_all')} />
                <Table.Th>{t('email')}</Table.Th>
                <Table.Th>{t('added_at')}</Table.Th>
              </>
            }
          >
            {items.map((item) => (
              <Table.Tr key={item.id} data-testid="whitelist-row" data-email={item.email}>
                <RowSelectCell id={item.id} selected={selected} onChange={setSelected} label={t('select_named', { email: item.email })} />
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.email}</Table.Td>
                <Table.Td>{formatDate(item.created_at, language)}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
      {bulkDelete.dialog}
    </AdminPageFrame>
  );
}

import { useCallback, useState } from 'react';
import { Badge, Button, Table } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminInvitationsApi, type AdminMemberGroup } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { useAllAdminGroups } from '../../../api/adminMemberGroups';
import { invalidateEndpoints, useEndpointQuery } from '../../../api/endpointHooks';
import { IconUserPlus } from '../../../components/icons';
import { useListState } from '../../../components/list/useListState';
import { useBulkDelete } from '../../../components/list/useBulkDelete';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { InviteDialog } from './InviteDialog';
import { ListStates } from '../../../components/list/ListStates';
import { ListFilters, ListOrderSelect, ListSearchInput, ListTable, ListToolbar, RowSelectCell, SelectAllHeader } from '../../../components/list/ListParts';
import { localizedName } from '../../../../../shared/domain/language';

/** The list's orders (spec §7 order_by and order_type), kept in the URL as `order`. */
const ORDERS = ['created_at.desc', 'created_at.asc', 'email.asc', 'email.desc', 'name.asc', 'status.asc'] as const;
const ORDER = z.enum(ORDERS).default('created_at.desc');

/** Admin invitations (spec §2 "invited members", §4, §7): list, invite several at once, delete in bulk. */
export default function InvitationsPage() {
  const { t } = useTranslation('adminInvitations');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE, order: ORDER });
  const { page, size, search } = listState;
  const [orderBy, orderType] = listState.order.split('.') as ['created_at' | 'email' | 'name' | 'status', 'asc' | 'desc'];
  const list = useEndpointQuery(
    adminInvitationsApi.listAdminInvitations,
    { query: { page, size, order_by: orderBy, order_type: orderType, search_term: search } },
    { placeholderData: keepPreviousData },
  );
  const groups = useAllAdminGroups();
  const [selected, setSelected] = useState<number[]>([]);
  const [inviting, setInviting] = useState(false);
  const refresh = () => invalidateEndpoints(queryClient, [adminInvitationsApi.listAdminInvitations]);
  const groupName = useCallback((group: AdminMemberGroup) => localizedName(group, language), [language]);
  const groupOf = (id: number | null) => {
    const group = groups.data?.items.find((row) => row.id === id);
    return group ? groupName(group) : t('default_group');
  };

  const bulkDelete = useBulkDelete({
    ns: 'adminInvitations',
    selected,
    endpoint: adminInvitationsApi.bulkDeleteInvitations,
    toInput: (ids) => ({ body: { invitation_ids: ids } }),
    onSettled: () => {
      setSelected([]);
      return refresh();
    },
  });

  const items = list.data?.items ?? [];
  const pageIds = items.map((item) => item.id);
  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListToolbar>
        <ListFilters>
          <ListSearchInput list={listState} type="search" placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 240 }} />
          <ListOrderSelect list={listState} orders={ORDERS} label={t('order')} optionLabel={(value) => t(`orders.${value}`)} onOrder={() => setSelected([])} />
        </ListFilters>
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
          {t('invite')}
        </Button>
      </ListToolbar>
      {bulkDelete.actions}
      <ListStates query={list} list={listState} endpoint={adminInvitationsApi.listAdminInvitations} empty={t('empty')} noMatch={t('no_match')}>
        {() => (
          <ListTable
            minWidth={720}
            verticalSpacing="sm"
            data-testid="admin-invitations"
            head={
              <>
                <SelectAllHeader ids={pageIds} selected={selected} onChange={setSelected} label={t('select_all')} />
                <Table.Th>{t('email')}</Table.Th>
                <Table.Th>{t('name')}</Table.Th>
                <Table.Th>{t('group')}</Table.Th>
                <Table.Th>{t('status')}</Table.Th>
                <Table.Th>{t('invited_by')}</Table.Th>
                <Table.Th>{t('invited_at')}</Table.Th>
              </>
            }
          >
            {items.map((item) => (
              <Table.Tr key={item.id} data-testid="invitation-row" data-email={item.email}>
                <RowSelectCell id={item.id} selected={selected} onChange={setSelected} label={t('select_named', { email: item.email })} />
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.email}</Table.Td>
                <Table.Td>{item.name ?? '—'}</Table.Td>
                <Table.Td>{groupOf(item.member_group_id)}</Table.Td>
                <Table.Td>
                  {/* Dark text on the light badge (WCAG AA at badge size), as the chatbot status badge does. */}
                  <Badge variant="light" color={item.status === 'pending' ? 'yellow' : 'green'} c="dark.7">
                    {t(`status_${item.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.invited_by ?? '—'}</Table.Td>
                <Table.Td>{formatDate(item.created_at, language)}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
      {inviting && (
        <InviteDialog opened groups={groups.data?.items ?? []} groupName={groupName} onClose={() => setInviting(false)} onInvited={() => void refresh()} />
      )}
      {bulkDelete.dialog}
    </AdminPageFrame>
  );
}

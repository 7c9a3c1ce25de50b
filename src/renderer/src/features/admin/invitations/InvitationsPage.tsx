import { useCallback, useState } from 'react';
import { Badge, Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { adminInvitationsApi, type AdminMemberGroup } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { deleteInvitations, useAdminInvitations } from '../../../api/adminInvitations';
import { useAllAdminGroups } from '../../../api/adminMemberGroups';
import { errorMessageKey } from '../../../api/errorMessages';
import { queryKeys } from '../../../api/queryKeys';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { IconUserPlus } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useListSearchBox, useListSearchParams } from '../../../components/useListSearchParams';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { InviteDialog } from './InviteDialog';
import { ListPagination, ListStates, RowCheckbox, SelectAllCheckbox } from '../../../components/ListStates';
import { localizedName } from '../../../../../shared/domain/language';

/** The list's orders (spec §7 order_by and order_type), kept in the URL as `order`. */
const ORDERS = ['created_at.desc', 'created_at.asc', 'email.asc', 'email.desc', 'name.asc', 'status.asc'] as const;
type Order = (typeof ORDERS)[number];
const isOrder = (value: string | null): value is Order => ORDERS.includes(value as Order);

/** Admin invitations (spec §2 "invited members", §4, §7): list, invite several at once, delete in bulk. */
export default function InvitationsPage() {
  const { t } = useTranslation('adminInvitations');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const { page, size, search, setListParams } = useListSearchParams(DEFAULT_LIST_PAGE_SIZE);
  const { query, typeSearch } = useListSearchBox(search, setListParams);
  const [searchParams, setSearchParams] = useSearchParams();
  const orderParam = searchParams.get('order');
  const order: Order = isOrder(orderParam) ? orderParam : 'created_at.desc';
  const [orderBy, orderType] = order.split('.') as ['created_at' | 'email' | 'name' | 'status', 'asc' | 'desc'];
  const list = useAdminInvitations({ page, size, order_by: orderBy, order_type: orderType, ...(search ? { search_term: search } : {}) });
  const groups = useAllAdminGroups();
  const [selected, setSelected] = useState<number[]>([]);
  const [inviting, setInviting] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.adminInvitationsAll });
  const groupName = useCallback((group: AdminMemberGroup) => localizedName(group, language), [language]);
  const groupOf = (id: number | null) => {
    const group = groups.data?.items.find((row) => row.id === id);
    return group ? groupName(group) : t('default_group');
  };

  const remove = useMutation({
    mutationFn: (ids: number[]) => deleteInvitations(ids),
    onSuccess: (result) => showToast('success', t('deleted', { count: result.deleted })),
    onError: (error) => showToast('error', t(errorMessageKey(error, adminInvitationsApi.bulkDeleteInvitations))),
    onSettled: () => {
      setSelected([]);
      setConfirmingDelete(false);
      return refresh();
    },
  });

  const setOrder = (next: string | null) => {
    setSelected([]);
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      params.set('order', next ?? 'created_at.desc');
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
      errorTitle={(error) => t(errorMessageKey(error, adminInvitationsApi.listAdminInvitations))}
      retryLabel={t('retry')}
      empty={search ? t('no_match') : t('empty')}
    >
      {() => (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" data-testid="admin-invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <SelectAllCheckbox ids={pageIds} selected={selected} onChange={setSelected} label={t('select_all')} />
                </Table.Th>
                <Table.Th>{t('email')}</Table.Th>
                <Table.Th>{t('name')}</Table.Th>
                <Table.Th>{t('group')}</Table.Th>
                <Table.Th>{t('status')}</Table.Th>
                <Table.Th>{t('invited_by')}</Table.Th>
                <Table.Th>{t('invited_at')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id} data-testid="invitation-row" data-email={item.email}>
                  <Table.Td>
                    <RowCheckbox id={item.id} selected={selected} onChange={setSelected} label={t('select_named', { email: item.email })} />
                  </Table.Td>
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
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </ListStates>
  );

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap" style={{ flex: '1 1 320px' }}>
          <TextInput type="search" value={query} onChange={(event) => typeSearch(event.currentTarget.value)} placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 240 }} />
          <Select label={t('order')} value={order} onChange={setOrder} allowDeselect={false} data={ORDERS.map((value) => ({ value, label: t(`orders.${value}`) }))} w={{ base: '100%', sm: 200 }} />
        </Group>
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setInviting(true)}>
          {t('invite')}
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
      {inviting && <InviteDialog opened groups={groups.data?.items ?? []} groupName={groupName} onClose={() => setInviting(false)} onInvited={() => void refresh()} />}
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

import { useState } from 'react';
import { Badge, Button, Group, SegmentedControl, Table, Text } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminMemberRequestsApi, type MemberRequest } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { MEMBER_QUERIES } from '../../../api/adminMembers';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { showToast } from '../../../components/toast';
import { useListState } from '../../../components/list/useListState';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { useRejectDialog } from '../chatbots/RejectDialog';
import { ListStates } from '../../../components/list/ListStates';
import { ActionsHeader, BulkActions, ListSearchInput, ListTable, ListToolbar, RowSelectCell, SelectAllHeader } from '../../../components/list/ListParts';
import { localizedName } from '../../../../../shared/domain/language';

const TYPES = ['all', ...adminMemberRequestsApi.MEMBER_REQUEST_TYPES] as const;
const FILTERS = z.object({ type: z.enum(TYPES).default('all') });

interface Decision {
  ids: number[];
  approve: boolean;
  reason?: string;
}

/** Admin "pending member requests" (spec §2, §4): new registrations and group changes, decided singly or in bulk. */
export default function RequestsPage() {
  const { t } = useTranslation('adminMembers');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE, filters: FILTERS });
  const { page, size, search } = listState;
  const { type } = listState.filters;
  const list = useEndpointQuery(
    adminMemberRequestsApi.listMemberRequests,
    { query: { page, size, search_term: search, ...(type === 'all' ? {} : { request_type: type }) } },
    { placeholderData: keepPreviousData },
  );
  const [selected, setSelected] = useState<number[]>([]);
  const items = list.data?.items ?? [];
  const refresh = () => void invalidateEndpoints(queryClient, [adminMemberRequestsApi.listMemberRequests, ...MEMBER_QUERIES]);

  // One request or several (bulk): each its own endpoint, with its own messages.
  const handlers = (approve: boolean) => ({
    onSuccess: (count: number) => {
      showToast('success', t(approve ? 'requests.approved_toast' : 'requests.rejected_toast', { count }));
      setSelected([]);
      rejection.close();
      refresh();
    },
    // Another admin may have decided first: show the list as it is now.
    onError: refresh,
  });
  const decideOne = useEndpointMutation(adminMemberRequestsApi.processPendingRequest);
  const decideMany = useEndpointMutation(adminMemberRequestsApi.bulkProcessPendingRequests);
  const decide = ({ ids, approve, reason }: Decision) => {
    const decision = { approve, ...(reason ? { reason } : {}) };
    const { onSuccess, onError } = handlers(approve);
    if (ids.length === 1) decideOne.mutate({ params: { id: ids[0]! }, body: decision }, { onSuccess: () => onSuccess(1), onError });
    else decideMany.mutate({ body: { member_ids: ids, ...decision } }, { onSuccess: ({ processed }) => onSuccess(processed), onError });
  };
  const deciding = decideOne.isPending || decideMany.isPending;
  const rejection = useRejectDialog({ ns: 'adminMembers', busy: deciding, onReject: (ids, reason) => decide({ ids, approve: false, reason }) });

  const setType = (next: string) => {
    setSelected([]);
    listState.setFilter('type', next as typeof type);
  };
  const ids = items.map((item) => item.member_id);
  const groupsText = (groups: MemberRequest['requested_groups']) => groups.map((group) => localizedName(group, language)).join(', ') || '—';

  return (
    <AdminPageFrame title={t('requests.title')} description={t('requests.description')}>
      <ListToolbar>
        <SegmentedControl
          value={type}
          onChange={setType}
          data={TYPES.map((value) => ({ value, label: t(`requests.types.${value}`) }))}
          aria-label={t('requests.type')}
        />
        <ListSearchInput list={listState} type="search" aria-label={t('requests.search')} placeholder={t('requests.search')} w={{ base: '100%', sm: 260 }} />
      </ListToolbar>
      <BulkActions count={selected.length} label={t('selected', { count: selected.length })}>
        <Button size="xs" onClick={() => decide({ ids: selected, approve: true })} loading={decideMany.isPending} data-testid="bulk-approve">
          {t('requests.approve_selected')}
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => rejection.open(selected)} data-testid="bulk-reject">
          {t('requests.reject_selected')}
        </Button>
      </BulkActions>
      <ListStates query={list} list={listState} endpoint={adminMemberRequestsApi.listMemberRequests} empty={t('requests.empty')} emptyTestId="requests-empty">
        {() => (
          <ListTable
            minWidth={860}
            verticalSpacing="sm"
            data-testid="requests-table"
            head={
              <>
                <SelectAllHeader ids={ids} selected={selected} onChange={setSelected} label={t('requests.select_all')} />
                <Table.Th>{t('column.name')}</Table.Th>
                <Table.Th>{t('requests.type')}</Table.Th>
                <Table.Th>{t('requests.requested_groups')}</Table.Th>
                <Table.Th>{t('requests.current_groups')}</Table.Th>
                <Table.Th>{t('requests.requested_at')}</Table.Th>
                <ActionsHeader label={t('requests.actions')} />
              </>
            }
          >
            {items.map((item) => (
              <Table.Tr key={item.member_id} data-testid="request-row" data-email={item.email}>
                <RowSelectCell id={item.member_id} selected={selected} onChange={setSelected} label={t('select_named', { name: item.name })} />
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {item.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {item.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    tt="none"
                    miw="max-content"
                    color={item.request_type === 'registration' ? 'blue' : 'grape'}
                    c={item.request_type === 'registration' ? 'blue.9' : 'grape.9'}
                  >
                    {t(`requests.types.${item.request_type}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{groupsText(item.requested_groups)}</Table.Td>
                <Table.Td>{groupsText(item.current_groups)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(item.requested_at, language)}</Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap" justify="flex-end">
                    <Button
                      size="xs"
                      onClick={() => decide({ ids: [item.member_id], approve: true })}
                      loading={decideOne.isPending && decideOne.variables.params.id === item.member_id}
                      aria-label={t('requests.approve_named', { name: item.name })}
                      data-testid="approve-request"
                    >
                      {t('requests.approve')}
                    </Button>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={() => rejection.open([item.member_id])}
                      aria-label={t('requests.reject_named', { name: item.name })}
                      data-testid="reject-request"
                    >
                      {t('reject')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
      {rejection.dialog}
    </AdminPageFrame>
  );
}

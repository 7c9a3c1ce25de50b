import { useState } from 'react';
import { Alert, Box, Button, Drawer, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AdminPageFrame } from '../AdminPageFrame';
import { z } from 'zod';
import { adminChatbotsApi, type AdminChatbot } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import type { EndpointQuery } from '../../../../../shared/api/endpoint';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { showToast } from '../../../components/toast';
import { useListState } from '../../../components/list/useListState';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { chatbotName } from '../../../../../shared/domain/chatbots';
import { ChatbotStatusBadge } from '../../../components/ChatbotStatusBadge';
import { useRejectDialog } from './RejectDialog';
import { ListStates } from '../../../components/list/ListStates';
import { BulkActions, ListSearchInput, ListTable, ListToolbar, RowSelectCell, SelectAllHeader } from '../../../components/list/ListParts';
import { localizedName } from '../../../../../shared/domain/language';

/** The review's views (spec §4: hide pending ones, show approved only, rejected), kept in the URL as `status`. */
const VIEWS = {
  pending: { waiting_publish: true },
  reviewed: { waiting_publish: false },
  approved: { is_public: true },
  rejected: { publish_rejected: true },
  all: {},
} satisfies Record<string, Partial<EndpointQuery<typeof adminChatbotsApi.listAdminChatbots>>>;
type View = keyof typeof VIEWS;
const FILTERS = z.object({ status: z.enum(Object.keys(VIEWS) as [View, ...View[]]).default('pending') });

interface Decision {
  ids: number[];
  approve: boolean;
  reason?: string;
}

function Details({ chatbot }: { chatbot: AdminChatbot }) {
  const { t } = useTranslation('publishing');
  const language = useResolvedLanguage();
  const rows: [string, string][] = [
    [t('ko_name'), chatbot.ko_name],
    [t('en_name'), chatbot.en_name],
    [t('author'), chatbot.creator ? `${chatbot.creator.name}${chatbot.creator_email ? ` <${chatbot.creator_email}>` : ''}` : '—'],
    [t('model'), chatbot.llm_model.display_name],
    [t('categories'), chatbot.categories.map((category) => localizedName(category, language)).join(', ') || '—'],
    [t('groups'), chatbot.member_groups.map((group) => localizedName(group, language)).join(', ') || t('no_groups')],
    [t('documents'), chatbot.documents.map((document) => document.name).join(', ') || '—'],
    [t('ko_key_features'), chatbot.ko_key_features || '—'],
    [t('en_key_features'), chatbot.en_key_features || '—'],
  ];
  return (
    <Stack gap="sm">
      <ChatbotStatusBadge status={chatbot.status} />
      {chatbot.publish_feedback && (
        <Alert color="red" variant="light" title={t('last_feedback')}>
          {chatbot.publish_feedback}
        </Alert>
      )}
      <Box component="dl" m={0}>
        {rows.map(([label, value]) => (
          <Box key={label} mb="xs">
            <Text component="dt" size="xs" fw={600} c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0} size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Box>
        ))}
      </Box>
      <Box>
        <Text size="xs" fw={600} c="dimmed">
          {t('instructions')}
        </Text>
        <Text size="sm" mt={4} p="sm" bg="gray.0" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', borderRadius: 8 }}>
          {chatbot.system_instructions || '—'}
        </Text>
      </Box>
    </Stack>
  );
}

/** Admin "chatbot public management" (spec §2, §4, §7): publish requests with an approve or reject drawer. */
export default function AdminChatbotsPage() {
  const { t } = useTranslation('publishing');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE, filters: FILTERS });
  const { page, size, search } = listState;
  const view = listState.filters.status;
  const list = useEndpointQuery(
    adminChatbotsApi.listAdminChatbots,
    { query: { page, size, search_term: search, ...VIEWS[view] } },
    { placeholderData: keepPreviousData },
  );
  const [selected, setSelected] = useState<number[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  const items = list.data?.items ?? [];
  const open = items.find((item) => item.id === openId) ?? null;

  // Someone else may have decided first: after a failure too, the list shows what is now.
  const refresh = () => void invalidateEndpoints(queryClient, [adminChatbotsApi.listAdminChatbots]);
  // One chatbot or several (bulk): each its own endpoint, with its own messages.
  const decideOne = useEndpointMutation(adminChatbotsApi.processPublishRequest, { onError: refresh });
  const decideMany = useEndpointMutation(adminChatbotsApi.bulkProcessPublishRequests, { onError: refresh });
  const decide = ({ ids, approve, reason }: Decision) => {
    const decision = { approve, ...(reason ? { reason } : {}) };
    const decided = (count: number) => {
      showToast('success', t(approve ? 'approved_toast' : 'rejected_toast', { count }));
      setSelected([]);
      rejection.close();
      setOpenId(null);
      refresh();
    };
    if (ids.length === 1) decideOne.mutate({ params: { id: ids[0]! }, body: decision }, { onSuccess: () => decided(1) });
    else decideMany.mutate({ body: { chatbot_ids: ids, ...decision } }, { onSuccess: ({ processed }) => decided(processed) });
  };
  const deciding = decideOne.isPending || decideMany.isPending;
  const rejection = useRejectDialog({ busy: deciding, onReject: (ids, reason) => decide({ ids, approve: false, reason }) });

  const setView = (next: string) => {
    setSelected([]);
    listState.setFilter('status', next as View);
  };
  const waitingIds = items.filter((item) => item.waiting_publish).map((item) => item.id);

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListToolbar>
        <SegmentedControl
          value={view}
          onChange={setView}
          data={(Object.keys(VIEWS) as View[]).map((value) => ({ value, label: t(`view.${value}`) }))}
          aria-label={t('view_label')}
        />
        <ListSearchInput list={listState} placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 260 }} />
      </ListToolbar>
      <BulkActions count={selected.length} label={t('selected', { count: selected.length })}>
        <Button size="xs" onClick={() => decide({ ids: selected, approve: true })} loading={deciding}>
          {t('approve_selected')}
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => rejection.open(selected)}>
          {t('reject_selected')}
        </Button>
      </BulkActions>
      <ListStates
        query={list}
        list={listState}
        endpoint={adminChatbotsApi.listAdminChatbots}
        empty={t(view === 'pending' ? 'empty_pending' : 'empty')}
        emptyTestId="admin-chatbots-empty"
      >
        {() => (
          <ListTable
            minWidth={640}
            verticalSpacing="sm"
            highlightOnHover
            data-testid="admin-chatbots"
            head={
              <>
                <SelectAllHeader ids={waitingIds} selected={selected} onChange={setSelected} label={t('select_all')} disabled={waitingIds.length === 0} />
                <Table.Th>{t('name')}</Table.Th>
                <Table.Th>{t('author')}</Table.Th>
                <Table.Th>{t('status')}</Table.Th>
                <Table.Th>{t('updated')}</Table.Th>
                <Table.Th />
              </>
            }
          >
            {items.map((item) => {
              const name = chatbotName(item, language) || t('untitled');
              return (
                <Table.Tr key={item.id} data-testid="admin-chatbot-row" data-name={item.en_name}>
                  <RowSelectCell id={item.id} selected={selected} onChange={setSelected} label={t('select_named', { name })} disabled={!item.waiting_publish} />
                  <Table.Td fw={500}>{name}</Table.Td>
                  <Table.Td>{item.creator?.name ?? '—'}</Table.Td>
                  <Table.Td>
                    <ChatbotStatusBadge status={item.status} />
                  </Table.Td>
                  <Table.Td>{formatDate(item.updated_at, language)}</Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="light" onClick={() => setOpenId(item.id)} aria-label={t('review_named', { name })}>
                      {t('review')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
        )}
      </ListStates>
      <Drawer
        opened={open !== null}
        onClose={() => setOpenId(null)}
        position="right"
        size="lg"
        title={open ? chatbotName(open, language) || t('untitled') : ''}
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        {open && (
          <Stack gap="lg">
            <Details chatbot={open} />
            {open.waiting_publish ? (
              <Group>
                <Button onClick={() => decide({ ids: [open.id], approve: true })} loading={deciding} data-testid="approve">
                  {t('approve')}
                </Button>
                <Button color="red" variant="light" onClick={() => rejection.open([open.id])} data-testid="reject">
                  {t('reject')}
                </Button>
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                {t('not_waiting')}
              </Text>
            )}
          </Stack>
        )}
      </Drawer>
      {rejection.dialog}
    </AdminPageFrame>
  );
}

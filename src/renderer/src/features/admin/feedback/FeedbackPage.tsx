import { Anchor, Box, Group, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { adminFeedbackApi, type AdminFeedback, type FeedbackCounts } from '../../../../../shared/api';
import type { AdminFeedbackQuery } from '../../../../../shared/api/admin/feedback';
import { chatbotName } from '../../../../../shared/domain/chatbots';
import { FEEDBACK_RATINGS } from '../../../../../shared/domain/feedback';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { SHARED_SESSION_ROUTE } from '../../../../../shared/domain/sharing';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { FeedbackRate, RatingBadge, ReasonText } from '../../../components/feedback/FeedbackParts';
import { PERIOD_FILTERS, listPeriod } from '../../../components/list/dayRange';
import { ListClearFilters, ListTable } from '../../../components/list/ListParts';
import { PeriodFilter } from '../../../components/list/PeriodFilter';
import { ListStates } from '../../../components/list/ListStates';
import { useListState } from '../../../components/list/useListState';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';

const ID = z.coerce.number().int().positive();
const FILTERS = z.object({
  chatbot: ID.optional(),
  model: ID.optional(),
  rating: z.enum(FEEDBACK_RATINGS).optional(),
  ...PERIOD_FILTERS,
});

/** One breakdown of the counts (per chatbot, per model): name, up, down and the share of up. */
function CountsTable({ title, rows }: { title: string; rows: { key: number; name: string; counts: FeedbackCounts }[] }) {
  const { t } = useTranslation('feedback');
  return (
    <Box>
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.no_counts')}
        </Text>
      ) : (
        <ListTable minWidth={420} verticalSpacing={6} scrollRegion={title} head={<CountsHead />}>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.name}</Table.Td>
              <Table.Td ta="right">{row.counts.up}</Table.Td>
              <Table.Td ta="right">{row.counts.down}</Table.Td>
              <Table.Td w={150}>
                <FeedbackRate counts={row.counts} />
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
    </Box>
  );
}

function CountsHead() {
  const { t } = useTranslation('feedback');
  return (
    <>
      <Table.Th>{t('admin.name')}</Table.Th>
      <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
        {t('rating.up')}
      </Table.Th>
      <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
        {t('rating.down')}
      </Table.Th>
      <Table.Th style={{ whiteSpace: 'nowrap' }}>{t('admin.share_up')}</Table.Th>
    </>
  );
}

/** The answer's link: only to a chat its member shares publicly; the console does not open private chats. */
function AnswerLink({ item }: { item: AdminFeedback }) {
  const { t } = useTranslation('feedback');
  if (!item.shared_session_hash)
    return (
      <Text size="xs" c="dimmed">
        {t('admin.not_shared')}
      </Text>
    );
  return (
    <Anchor component={Link} to={`${SHARED_SESSION_ROUTE}/${item.shared_session_hash}`} target="_blank" size="sm" data-testid="feedback-answer-link">
      {t('admin.open_answer')}
    </Anchor>
  );
}

/** Admin console "Feedback" (issue 23): how members rate the answers, per chatbot and per model, and what they said. */
export default function FeedbackPage() {
  const { t } = useTranslation('feedback');
  const language = useResolvedLanguage();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE, filters: FILTERS });
  const { page, size, filters } = listState;
  const period = listPeriod(filters);
  const request: AdminFeedbackQuery = {
    page,
    size,
    ...(filters.chatbot ? { chatbot_id: filters.chatbot } : {}),
    ...(filters.model ? { llm_model_id: filters.model } : {}),
    ...(filters.rating ? { rating: filters.rating } : {}),
    ...period.query,
  };
  const list = useEndpointQuery(adminFeedbackApi.listFeedback, { query: request }, { placeholderData: keepPreviousData });
  const summary = list.data?.summary;
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });

  const chatbotRows = (summary?.by_chatbot ?? []).map((row) => ({
    key: row.chatbot.id,
    name: chatbotName(row.chatbot, language) || t('admin.untitled'),
    counts: row,
  }));
  const modelRows = (summary?.by_model ?? []).map((row) => ({ key: row.model.id, name: row.model.name, counts: row }));
  // The breakdowns leave out their own filter, so they are the choices (the chosen one stays while the period hides it).
  const options = (rows: { key: number; name: string }[], chosen: number | undefined) => {
    const data = rows.map((row) => ({ value: String(row.key), label: row.name }));
    return chosen !== undefined && !rows.some((row) => row.key === chosen) ? [...data, { value: String(chosen), label: `#${chosen}` }] : data;
  };

  return (
    <AdminPageFrame title={t('admin.title')} description={t('admin.description')}>
      <Box component="form" role="search" aria-label={t('admin.filters')} mb="md" onSubmit={(event) => event.preventDefault()}>
        <Group align="flex-end" gap="sm">
          <Select
            label={t('admin.chatbot_label')}
            placeholder={t('admin.chatbot_all')}
            data={options(chatbotRows, filters.chatbot)}
            value={filters.chatbot === undefined ? null : String(filters.chatbot)}
            onChange={(value) => listState.setFilter('chatbot', value === null ? null : Number(value))}
            clearable
            searchable
            w={{ base: '100%', sm: 220 }}
            data-testid="feedback-chatbot-filter"
          />
          <Select
            label={t('admin.model_label')}
            placeholder={t('admin.model_all')}
            data={options(modelRows, filters.model)}
            value={filters.model === undefined ? null : String(filters.model)}
            onChange={(value) => listState.setFilter('model', value === null ? null : Number(value))}
            clearable
            w={{ base: '100%', sm: 200 }}
          />
          <Select
            label={t('admin.rating_label')}
            placeholder={t('admin.rating_all')}
            data={FEEDBACK_RATINGS.map((rating) => ({ value: rating, label: t(`rating.${rating}`) }))}
            value={filters.rating ?? null}
            onChange={(value) => listState.setFilter('rating', value as (typeof FEEDBACK_RATINGS)[number] | null)}
            clearable
            w={{ base: '100%', sm: 160 }}
          />
          <PeriodFilter list={listState} period={period} />
          <ListClearFilters list={listState} />
        </Group>
      </Box>
      {summary && (
        <Stack gap="lg" mb="xl">
          <Group gap="xl" data-testid="feedback-totals">
            <Text size="sm">{t('admin.totals', { up: summary.totals.up, down: summary.totals.down })}</Text>
            <Box w={220}>
              <FeedbackRate counts={summary.totals} />
            </Box>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <CountsTable title={t('admin.by_chatbot')} rows={chatbotRows} />
            <CountsTable title={t('admin.by_model')} rows={modelRows} />
          </SimpleGrid>
        </Stack>
      )}
      <Title order={2} size="h5" mb="xs">
        {t('admin.latest')}
      </Title>
      {list.data && (
        <Text size="sm" c="dimmed" mb="xs" aria-live="polite">
          {t('admin.results', { count: list.data.total_items })}
        </Text>
      )}
      <ListStates
        query={list}
        list={listState}
        endpoint={adminFeedbackApi.listFeedback}
        empty={t('admin.empty')}
        noMatch={t('admin.empty_filtered')}
        emptyTestId="feedback-empty"
        errorTestId="feedback-error"
        rowHeight={48}
      >
        {() => (
          <ListTable
            minWidth={860}
            verticalSpacing="sm"
            scrollRegion={t('admin.latest')}
            data-testid="feedback-list"
            head={
              <>
                <Table.Th>{t('admin.when')}</Table.Th>
                <Table.Th>{t('admin.member')}</Table.Th>
                <Table.Th>{t('admin.chatbot')}</Table.Th>
                <Table.Th>{t('admin.rating')}</Table.Th>
                <Table.Th>{t('admin.comment')}</Table.Th>
                <Table.Th>{t('admin.answer')}</Table.Th>
              </>
            }
          >
            {(list.data?.items ?? []).map((item) => (
              <Table.Tr key={item.id} data-testid="feedback-row">
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime.format(new Date(item.updated_at))}</Table.Td>
                <Table.Td>{item.member.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {chatbotName(item.chatbot, language) || t('admin.untitled')}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {item.model?.name ?? t('admin.deleted_model')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <RatingBadge rating={item.rating} />
                </Table.Td>
                <Table.Td maw={360}>
                  <ReasonText reason={item.reason} comment={item.comment} />
                </Table.Td>
                <Table.Td>
                  <AnswerLink item={item} />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
    </AdminPageFrame>
  );
}

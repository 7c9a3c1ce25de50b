import { QueryError } from '../../components/QueryError';
import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { Chip, Group, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { chatbotsApi, type Chatbot } from '../../../../shared/api';
import { recentChatbotsKey, useRecentChatbots } from '../../api/chatbots';
import { useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { useCategories } from '../../api/studio';
import { PageFrame } from '../../components/PageFrame';
import { useListState } from '../../components/list/useListState';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { ChatbotCard } from './ChatbotCard';
import { ChatbotDetail } from './ChatbotDetail';
import { ListPagination, ListSearchInput } from '../../components/list/ListParts';
import { localizedName } from '../../../../shared/domain/language';

const STORE_PAGE_SIZE = 12;
const ORDER = z.enum(['popular', 'created_at.desc']).default('popular');
const FILTERS = z.object({ category: z.coerce.number().int().positive().optional() });

/** The Store (spec §2): public chatbots by category and search, sorted, with the member's recent ones on top. */
export default function StorePage() {
  const { t } = useTranslation('store');
  const language = useResolvedLanguage();
  // Category and order are list parameters too: a change is a new history entry from page 1.
  const listState = useListState({ size: STORE_PAGE_SIZE, filters: FILTERS, order: ORDER });
  const { page, size, search, order } = listState;
  const categoryId = listState.filters.category ?? null;
  const list = useEndpointQuery(
    chatbotsApi.listChatbots,
    { query: { page, size, is_public: true, order_by: order, search_term: search, category_id: categoryId ?? undefined } },
    { placeholderData: keepPreviousData },
  );
  const categories = useCategories();
  const recents = useRecentChatbots();
  const forget = useEndpointMutation(chatbotsApi.forgetChatbot, { invalidates: () => [recentChatbotsKey] });
  const [open, setOpen] = useState<Chatbot | null>(null);

  const removeRecent = (chatbot: Chatbot) => forget.mutate({ params: { id: chatbot.id } });

  let results;
  if (list.isPending) {
    results = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true" data-testid="store-skeleton">
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} h={120} radius="md" />
        ))}
      </SimpleGrid>
    );
  } else if (list.isError) {
    results = <QueryError query={list} endpoint={chatbotsApi.listChatbots} />;
  } else if (list.data.items.length === 0) {
    results = (
      <Text c="dimmed" ta="center" py="xl" data-testid="store-empty">
        {search || categoryId ? t('no_match') : t('empty')}
      </Text>
    );
  } else {
    results = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="store-results">
        {list.data.items.map((chatbot) => (
          <ChatbotCard key={chatbot.id} chatbot={chatbot} onOpen={() => setOpen(chatbot)} />
        ))}
      </SimpleGrid>
    );
  }

  return (
    <PageFrame title={t('title')} description={t('description')}>
      {(recents.data?.length ?? 0) > 0 && (
        <Stack gap="xs" mb="xl" component="section" aria-labelledby="store-recent">
          <Title order={2} size="h4" id="store-recent">
            {t('recent')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="store-recents">
            {recents.data!.map((chatbot) => (
              <ChatbotCard key={chatbot.id} chatbot={chatbot} onOpen={() => setOpen(chatbot)} onRemove={() => removeRecent(chatbot)} />
            ))}
          </SimpleGrid>
        </Stack>
      )}
      <Stack gap="sm" mb="md" component="section" aria-labelledby="store-all">
        <Title order={2} size="h4" id="store-all">
          {t('all')}
        </Title>
        <Group gap="sm" align="flex-end">
          <ListSearchInput list={listState} placeholder={t('search')} aria-label={t('search')} flex={1} miw={200} />
          <Select
            label={t('sort')}
            value={order}
            onChange={(value) => listState.setOrder(value as typeof order)}
            data={[
              { value: 'popular', label: t('order.popular') },
              { value: 'created_at.desc', label: t('order.newest') },
            ]}
            allowDeselect={false}
            w={180}
          />
        </Group>
        <Chip.Group
          multiple={false}
          value={categoryId ? String(categoryId) : 'all'}
          onChange={(value) => listState.setFilter('category', value === 'all' ? null : Number(value))}
        >
          <Group gap={6} role="group" aria-label={t('categories')}>
            <Chip value="all" size="sm">
              {t('all_categories')}
            </Chip>
            {(categories.data ?? []).map((category) => (
              <Chip key={category.id} value={String(category.id)} size="sm">
                {localizedName(category, language)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Stack>
      {results}
      <ListPagination list={listState} totalPages={list.data?.total_pages} mt="lg" />
      <ChatbotDetail chatbot={open} onClose={() => setOpen(null)} />
    </PageFrame>
  );
}

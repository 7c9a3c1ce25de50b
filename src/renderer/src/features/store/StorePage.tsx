import { useState } from 'react';
import { Alert, Button, Chip, Group, Select, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { chatbotsApi, type Chatbot } from '../../../../shared/api';
import { errorMessageKey } from '../../api/errorMessages';
import { type StoreOrder, useRecentChatbotActions, useRecentChatbots, useStoreChatbots } from '../../api/store';
import { useCategories } from '../../api/studio';
import { PageFrame } from '../../components/PageFrame';
import { showToast } from '../../components/toast';
import { useListSearchBox, useListSearchParams } from '../../components/useListSearchParams';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { ChatbotCard } from './ChatbotCard';
import { ChatbotDetail } from './ChatbotDetail';
import { ListPagination } from '../../components/ListStates';
import { localizedName } from '../../../../shared/domain/language';

const STORE_PAGE_SIZE = 12;
const ORDERS: StoreOrder[] = ['popular', 'created_at.desc'];

/** The Store (spec §2): public chatbots by category and search, sorted, with the member's recent ones on top. */
export default function StorePage() {
  const { t } = useTranslation('store');
  const language = useResolvedLanguage();
  const { page, size, search, setListParams } = useListSearchParams(STORE_PAGE_SIZE);
  const { query, typeSearch } = useListSearchBox(search, setListParams);
  const [searchParams, setSearchParams] = useSearchParams();
  const categoryId = Number(searchParams.get('category')) || null;
  const order: StoreOrder = ORDERS.find((value) => value === searchParams.get('order')) ?? 'popular';
  const list = useStoreChatbots({ page, size, search, categoryId, order });
  const categories = useCategories();
  const recents = useRecentChatbots();
  const { forget } = useRecentChatbotActions();
  const [open, setOpen] = useState<Chatbot | null>(null);

  // Category and order are list parameters too: a change is a new history entry from page 1.
  const setParam = (name: 'category' | 'order', value: string | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      next.set('page', '1');
      return next;
    });
  const removeRecent = (chatbot: Chatbot) => void forget(chatbot.id).catch((error: unknown) => showToast('error', t(errorMessageKey(error, chatbotsApi.forgetChatbot))));

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
    results = (
      <Alert color="red" title={t(errorMessageKey(list.error, chatbotsApi.listChatbots))}>
        <Button size="xs" variant="default" onClick={() => void list.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
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
          <TextInput value={query} onChange={(event) => typeSearch(event.currentTarget.value)} placeholder={t('search')} aria-label={t('search')} flex={1} miw={200} />
          <Select
            label={t('sort')}
            value={order}
            onChange={(value) => setParam('order', value)}
            data={[
              { value: 'popular', label: t('order.popular') },
              { value: 'created_at.desc', label: t('order.newest') },
            ]}
            allowDeselect={false}
            w={180}
          />
        </Group>
        <Chip.Group multiple={false} value={categoryId ? String(categoryId) : 'all'} onChange={(value) => setParam('category', value === 'all' ? null : value)}>
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
      <ListPagination totalPages={list.data?.total_pages} page={page} onChange={(next) => setListParams({ page: next })} mt="lg" />
      <ChatbotDetail chatbot={open} onClose={() => setOpen(null)} />
    </PageFrame>
  );
}

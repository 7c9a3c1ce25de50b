import { Avatar, Button, Card, EmptyState, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { chatbotsApi, type Chatbot } from '../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../shared/domain/pagination';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { PageFrame } from '../../components/PageFrame';
import { IconPlus, IconStudio } from '../../components/icons';
import { useListState } from '../../components/list/useListState';
import { ListPagination, ListSearchInput } from '../../components/list/ListParts';
import { useMinimumLoading } from '../../components/useMinimumLoading';
import { formatDate } from '../../i18n/formatDate';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { ChatbotStatusBadge } from '../../components/ChatbotStatusBadge';
import { CreateChatbotDialog } from './CreateChatbotDialog';

/** The editor of one chatbot. */
export const studioEditorPath = (id: number) => `/dashboard/studio/${id}`;

function ListSkeleton() {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true" data-testid="studio-skeleton">
      {[0, 1, 2].map((index) => (
        <Card key={index} withBorder radius="lg" padding="lg">
          <Group mb="md">
            <Skeleton circle h={40} />
            <Skeleton h={14} w={140} />
          </Group>
          <Skeleton h={12} mb={8} />
          <Skeleton h={12} w="70%" />
        </Card>
      ))}
    </SimpleGrid>
  );
}

function ChatbotCard({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation('studio');
  const language = useResolvedLanguage();
  const name = chatbotName(chatbot, language) || t('untitled');
  const features = language === 'ko' ? chatbot.ko_key_features || chatbot.en_key_features : chatbot.en_key_features || chatbot.ko_key_features;
  return (
    <Card withBorder radius="lg" padding="lg" component="li" data-testid="studio-chatbot">
      <Group wrap="nowrap" gap="sm" mb="xs" align="flex-start">
        <Avatar src={chatbot.profile_image_url} alt="" radius="xl" color="indigo">
          {name.slice(0, 1)}
        </Avatar>
        <Stack gap={4} flex={1} miw={0}>
          {/* The whole card's action is this one link, so it reads as the chatbot's name. */}
          <Text component={Link} to={studioEditorPath(chatbot.id)} fw={600} truncate="end" c="inherit" td="none">
            {name}
          </Text>
          <Group gap={6}>
            <ChatbotStatusBadge status={chatbot.status} />
            <Text size="xs" c="dimmed">
              {t('updated', { date: formatDate(chatbot.updated_at, language) })}
            </Text>
          </Group>
        </Stack>
      </Group>
      {features && (
        <Text size="sm" c="dimmed" lineClamp={2}>
          {features}
        </Text>
      )}
      {chatbot.status === 'rejected' && chatbot.publish_feedback && (
        <Text size="sm" c="red.8" mt="xs" style={{ overflowWrap: 'anywhere' }} data-testid="publish-feedback">
          {t('feedback', { reason: chatbot.publish_feedback })}
        </Text>
      )}
    </Card>
  );
}

/** Studio (spec §2): the member's own chatbots, drafts included; search, page and size in the URL. */
export default function StudioPage() {
  const { t } = useTranslation('studio');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const memberId = useUserSession((state) => state.member?.id);
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const { page, size, search } = listState;
  // The member's own chatbots, drafts included (spec §2 list rule).
  const list = useEndpointQuery(
    chatbotsApi.listChatbots,
    { query: { creator_id: memberId, page, size, order_by: 'created_at.desc', search_term: search } },
    { enabled: memberId !== undefined, placeholderData: keepPreviousData, errorToast: true },
  );
  const loading = useMinimumLoading(list.isPending);

  const [naming, setNaming] = useState(false);
  const language = useResolvedLanguage();
  const create = useEndpointMutation(chatbotsApi.createChatbot, {
    // The name goes to the member's language, Korean or English; the editor has both.
    toInput: (name: string) => ({ body: language === 'ko' ? { ko_name: name } : { en_name: name } }),
    invalidates: [chatbotsApi.listChatbots],
    onSuccess: (chatbot) => {
      queryClient.setQueryData(endpointKey(chatbotsApi.getChatbot, { params: { id: chatbot.id } }), chatbot);
      void navigate(studioEditorPath(chatbot.id));
    },
  });

  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setNaming(true)} data-testid="create-chatbot">
      {t('create')}
    </Button>
  );
  const items = list.data?.items ?? [];
  const totalPages = list.data?.total_pages ?? 0;

  let body;
  if (loading) body = <ListSkeleton />;
  else if (list.isError && !list.data)
    body = (
      <EmptyState icon={<IconStudio size={28} />} title={t('load_failed')} py={60}>
        <Button variant="default" onClick={() => void list.refetch()}>
          {t('retry')}
        </Button>
      </EmptyState>
    );
  else if (items.length === 0)
    body = search ? (
      <Text c="dimmed" ta="center" py="xl">
        {t('no_match')}
      </Text>
    ) : (
      <EmptyState icon={<IconStudio size={28} />} title={t('empty.title')} description={t('empty.description')} py={60}>
        {createButton}
      </EmptyState>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('list_label')}>
        {items.map((chatbot) => (
          <ChatbotCard key={chatbot.id} chatbot={chatbot} />
        ))}
      </SimpleGrid>
    );

  return (
    <PageFrame title={t('title')} description={t('description')}>
      <Group justify="space-between" mb="lg" gap="sm">
        <ListSearchInput
          list={listState}
          type="search"
          flex={1}
          maw={420}
          miw={180}
          aria-label={t('search')}
          placeholder={t('search')}
          data-testid="studio-search"
        />
        {createButton}
      </Group>
      {body}
      <ListPagination list={listState} totalPages={totalPages} mt="lg" />
      <CreateChatbotDialog opened={naming} creating={create.isPending} onCreate={(name) => create.mutate(name)} onClose={() => setNaming(false)} />
    </PageFrame>
  );
}

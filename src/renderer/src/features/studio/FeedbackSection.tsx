import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { feedbackApi } from '../../../../shared/api';
import { CREATOR_FEEDBACK_PAGE_SIZE } from '../../../../shared/domain/feedback';
import { useEndpointInfiniteQuery } from '../../api/endpointHooks';
import { errorMessageKey } from '../../api/errorMessages';
import { FeedbackRate, RatingBadge, ReasonText } from '../../components/feedback/FeedbackParts';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { messageText } from '../../i18n/keys';

/**
 * The Studio's view of how members rate the chatbot's answers: the counts and the latest ratings
 * with their reasons, never who gave them nor their chats (docs/decisions/0078-answer-feedback.md).
 */
export function FeedbackSection({ chatbotId }: { chatbotId: number }) {
  const { t } = useTranslation('feedback');
  const language = useResolvedLanguage();
  const feedback = useEndpointInfiniteQuery(
    feedbackApi.getChatbotFeedback,
    { params: { id: chatbotId }, query: { size: CREATOR_FEEDBACK_PAGE_SIZE } },
    {
      pageQuery: (page: number) => ({ page }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page < last.total_pages ? last.page + 1 : undefined),
    },
  );
  if (feedback.isPending) return <Text size="sm">{t('studio.loading')}</Text>;
  if (feedback.isError)
    return (
      <Text size="sm" c="red">
        {messageText(errorMessageKey(feedback.error, feedbackApi.getChatbotFeedback))}
      </Text>
    );
  const totals = feedback.data.pages[0]!.totals;
  const items = feedback.data.pages.flatMap((page) => page.items);
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  return (
    <Stack gap="sm" data-testid="studio-feedback">
      <Text size="sm" c="dimmed">
        {t('studio.hint')}
      </Text>
      {items.length === 0 ? (
        <Text size="sm">{t('studio.empty')}</Text>
      ) : (
        <>
          <Group gap="lg" wrap="wrap">
            <Text size="sm">{t('admin.totals', { up: totals.up, down: totals.down })}</Text>
            <Box w={200}>
              <FeedbackRate counts={totals} />
            </Box>
          </Group>
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('studio.latest')}>
            {items.map((item) => (
              <li key={item.id} data-testid="studio-feedback-item">
                <Group gap="xs" align="flex-start" wrap="nowrap">
                  <RatingBadge rating={item.rating} />
                  <Stack gap={2} miw={0}>
                    <ReasonText reason={item.reason} comment={item.comment} />
                    <Text size="xs" c="dimmed">
                      {[date.format(new Date(item.updated_at)), item.model_name].filter(Boolean).join(' · ')}
                    </Text>
                  </Stack>
                </Group>
              </li>
            ))}
          </Stack>
          {feedback.hasNextPage && (
            <Button type="button" variant="subtle" size="compact-sm" onClick={() => void feedback.fetchNextPage()} loading={feedback.isFetchingNextPage}>
              {t('studio.more')}
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}

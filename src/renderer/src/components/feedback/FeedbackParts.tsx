import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FeedbackCounts } from '../../../../shared/api';
import type { FeedbackRating, FeedbackReason } from '../../../../shared/domain/feedback';
import { IconThumbDown, IconThumbUp } from '../icons';

/** What the console and the Studio show of answer ratings (issue 23). */

/** The share of up ratings: a bar and its percentage; a dash when there are none. */
export function FeedbackRate({ counts }: { counts: FeedbackCounts }) {
  const { t } = useTranslation('feedback');
  const total = counts.up + counts.down;
  if (total === 0) return <Text size="sm">–</Text>;
  const percent = Math.round((counts.up / total) * 100);
  const label = t('share_up', { percent });
  return (
    <Group gap="xs" wrap="nowrap" w="100%">
      <Progress value={percent} color="teal" bg="red.1" size="md" flex={1} aria-label={label} />
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {percent}%
      </Text>
    </Group>
  );
}

export function RatingBadge({ rating }: { rating: FeedbackRating }) {
  const { t } = useTranslation('feedback');
  const Icon = rating === 'up' ? IconThumbUp : IconThumbDown;
  return (
    <Badge variant="light" color={rating === 'up' ? 'teal' : 'red'} leftSection={<Icon size={12} />} style={{ flex: 'none' }}>
      {t(`rating.${rating}`)}
    </Badge>
  );
}

/** A down rating's reason and the member's words; nothing said shows as such. */
export function ReasonText({ reason, comment }: { reason: FeedbackReason | null; comment: string | null }) {
  const { t } = useTranslation('feedback');
  if (!reason && !comment)
    return (
      <Text size="xs" c="dimmed">
        {t('no_comment')}
      </Text>
    );
  return (
    <Stack gap={2}>
      {reason && (
        <Text size="xs" fw={600}>
          {t(`reason.${reason}`)}
        </Text>
      )}
      {comment && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment}
        </Text>
      )}
    </Stack>
  );
}

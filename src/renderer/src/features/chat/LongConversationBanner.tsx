import { useState, useSyncExternalStore } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatRun } from './chatRun';
import { estimateTokens } from '../../../../shared/domain/tokens';
import { isLongConversation } from './conversation';

const noSubscription = () => () => {};

interface LongConversationBannerProps {
  /** Context size of the stored conversation (the server's figure, updated after each answer). */
  contextTokens: number;
  contextLimit: number;
  run: ChatRun | null;
  onNewSession: () => void;
}

/**
 * Suggests a new session once the conversation fills most of the model's context. While an answer
 * streams, its text is estimated on top; the subscription yields a boolean so ticks do not
 * re-render the banner.
 */
export function LongConversationBanner({ contextTokens, contextLimit, run, onNewSession }: LongConversationBannerProps) {
  const { t } = useTranslation('chat');
  const [dismissed, setDismissed] = useState(false);
  const isLong = useSyncExternalStore(run?.subscribe ?? noSubscription, () => {
    const snapshot = run?.isActive ? run.getSnapshot() : null;
    const running = snapshot ? estimateTokens(snapshot.memberText + snapshot.text) : 0;
    return isLongConversation(contextTokens + running, contextLimit);
  });
  if (!isLong || dismissed) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      withCloseButton
      closeButtonLabel={t('longConversation.dismiss')}
      onClose={() => setDismissed(true)}
      mx="auto"
      maw={772}
      w="100%"
      data-testid="long-conversation"
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{t('longConversation.message')}</Text>
        <Button size="xs" variant="white" color="yellow" onClick={onNewSession} style={{ flex: 'none' }}>
          {t('longConversation.action')}
        </Button>
      </Group>
    </Alert>
  );
}

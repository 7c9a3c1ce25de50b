import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Chatbot } from '../../../../shared/api';
import { streamChat } from '../../api/chat';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useActiveRunStore } from '../chat/activeRun';
import { ChatRun } from '../chat/chatRun';
import { Composer } from '../chat/Composer';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { appendTurn, historyBesideRun, seedEmptyHistory, useOlderPages, useSessionHistory } from '../chat/history';
import { MessageList } from '../chat/MessageList';
import type { ChatbotFace } from '../chat/Messages';
import { modesBody } from '../chat/modes/modesStore';
import { webSearchFields } from '../sources/webSearchStore';
import classes from './studio.module.css';

const noSubscription = () => () => {};

interface TestChatPanelProps {
  chatbot: Chatbot;
  /** The editor has unsaved changes: they are saved before the message goes (false when saving failed). */
  dirty: boolean;
  saveFirst: () => Promise<boolean>;
}

/**
 * The Studio's test chat (spec §2): the chat's own list, bubbles, citations and composer, sending
 * `is_test: true` so the session stays out of My chats and the turn out of the member's recents.
 * It always talks to the saved chatbot, so unsaved edits are saved first.
 */
export function TestChatPanel({ chatbot, dirty, saveFirst }: TestChatPanelProps) {
  const { t } = useTranslation('studio');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const [sessionHash, setSessionHash] = useState<string | undefined>(undefined);
  const [run, setRun] = useState<ChatRun | null>(null);
  const history = useSessionHistory(sessionHash);
  const olderPages = useOlderPages(history);
  const runMeta = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.getSnapshot().meta ?? null);
  const streaming = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.isActive ?? false);

  // Leaving the editor stops the answer (the server keeps what was said).
  useEffect(() => () => run?.stop(), [run]);

  const messages = useMemo(() => historyBesideRun(history.data, runMeta), [history.data, runMeta]);
  const face = useMemo<ChatbotFace>(
    () => ({ name: chatbotName(chatbot, language) || t('untitled'), imageUrl: chatbot.profile_image_url }),
    [chatbot, language, t],
  );

  const send = useCallback(
    async (text: string) => {
      if (dirty && !(await saveFirst())) {
        useActiveRunStore.setState({ draft: text });
        return;
      }
      run?.stop();
      const next: ChatRun = new ChatRun({
        chatbotId: chatbot.id,
        body: { text, is_test: true, session_hash_id: sessionHash, ...webSearchFields(), ...modesBody() },
        streamChat,
        onMeta: (meta) => {
          if (!meta.session_created) return;
          seedEmptyHistory(queryClient, meta.session_hash_id);
          setSessionHash(meta.session_hash_id);
        },
        onSettled: (snapshot) => {
          if (snapshot.rejected) {
            if (useActiveRunStore.getState().draft === '') useActiveRunStore.setState({ draft: snapshot.memberText });
            return;
          }
          appendTurn(queryClient, snapshot);
          if (snapshot.error === null) setRun((current) => (current === next ? null : current));
        },
      });
      setRun(next);
      void next.start();
    },
    [chatbot.id, dirty, saveFirst, run, sessionHash, queryClient],
  );

  const restart = () => {
    run?.stop();
    setRun(null);
    setSessionHash(undefined);
  };

  return (
    <Card
      withBorder
      radius="lg"
      padding={0}
      className={classes.testChat}
      pos={{ base: 'static', md: 'sticky' }}
      top={16}
      h={{ base: 560, md: 'min(760px, calc(100dvh - 140px))' }}
      component="section"
      aria-labelledby="test-chat-title"
      data-testid="test-chat"
    >
      <Group justify="space-between" px="md" pt="md" gap="xs" data-testid="test-chat-header">
        <Title order={2} size="h5" id="test-chat-title">
          {t('test.title')}
        </Title>
        <Button size="compact-sm" variant="subtle" onClick={restart} disabled={sessionHash === undefined && run === null}>
          {t('test.restart')}
        </Button>
      </Group>
      <Text size="xs" c={dirty ? 'red.9' : 'dimmed'} px="md" pt={4} data-testid="test-chat-note">
        {dirty ? t('test.unsaved') : t('test.saved')}
      </Text>
      <MessageList
        messages={messages}
        run={run}
        face={face}
        {...olderPages}
        empty={
          <Stack align="center" gap={4} py="xl" px="md" ta="center">
            <Text fw={600}>{t('test.empty')}</Text>
            <Text size="sm" c="dimmed">
              {t('test.metering')}
            </Text>
          </Stack>
        }
      />
      <Composer
        onSend={(text) => void send(text)}
        onStop={() => run?.stop()}
        streaming={streaming}
        conversationKey={`studio-${chatbot.id}`}
        focusOnOpen={false}
      />
    </Card>
  );
}

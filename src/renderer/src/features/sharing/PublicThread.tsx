import type { ComponentProps } from 'react';
import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../api/errorMessages';
import { MessageList } from '../chat/MessageList';
import { messageText } from '../../i18n/keys';

type PublicThreadProps = Omit<ComponentProps<typeof MessageList>, 'onAskAgain'> & {
  /** What failed to load, shown instead of the thread; null when nothing did. */
  error: unknown;
  loading: boolean;
};

/**
 * The thread of a page a signed-out visitor reads (a shared session, a public chatbot): the load
 * error, a loader, or the messages with the visitor's streaming answer.
 */
export function PublicThread({ error, loading, ...list }: PublicThreadProps) {
  const { t } = useTranslation('sharing');
  if (error) {
    return (
      <Center flex={1}>
        <Text>{messageText(errorKeyOf(error))}</Text>
      </Center>
    );
  }
  if (loading) {
    return (
      <Center flex={1}>
        <Loader aria-label={t('public.loading')} />
      </Center>
    );
  }
  return <MessageList {...list} />;
}

import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { IconLock } from '../../components/icons';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/**
 * Spec §2 chatbot-unavailable page, for a chatbot that was deleted, made private or taken out of
 * the member's groups (the API answers 404 for all three and does not say which). Its chats stay
 * in My chats; the button opens the default chat.
 */
export function ChatbotUnavailable() {
  const { t } = useTranslation('sharing');
  useDocumentTitle(t('unavailable.title'));
  return (
    <Center flex={1} p="lg" data-testid="chatbot-unavailable">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconLock size={28} />
        </ThemeIcon>
        <Title order={1} fz="h3">
          {t('unavailable.title')}
        </Title>
        <Text c="dimmed">{t('unavailable.body')}</Text>
        <Button component={Link} to="/dashboard/chat" mt="xs">
          {t('unavailable.toDefault')}
        </Button>
      </Stack>
    </Center>
  );
}

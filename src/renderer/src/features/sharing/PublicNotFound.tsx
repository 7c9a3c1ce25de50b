import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useUserSession } from '../../stores/userSession';

/**
 * A public link that leads nowhere (a session no longer shared, a chatbot not public): what it
 * was, why, and the way on: the member's chat, or sign-in for a visitor.
 */
export function PublicNotFound({ title, hint, testId }: { title: string; hint: string; testId: string }) {
  const { t } = useTranslation('sharing');
  const member = useUserSession((state) => state.member);
  useDocumentTitle(title);
  return (
    <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} h="100dvh" p="lg" data-testid={testId}>
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Title order={1} fz="h3">
          {title}
        </Title>
        <Text c="dimmed">{hint}</Text>
        <Button component={Link} to={member ? '/dashboard/chat' : '/auth'}>
          {member ? t('unavailable.toDefault') : t('public.signIn')}
        </Button>
      </Stack>
    </Center>
  );
}

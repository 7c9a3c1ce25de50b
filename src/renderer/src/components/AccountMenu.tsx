import { ActionIcon, Avatar, Box, Group, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getPlatform } from '../platform';
import { useUserSession } from '../stores/userSession';
import { IconLogout } from './icons';

/**
 * The signed-in member (avatar, name, email) with Sign out, at the foot of a side navigation: the
 * member app's and the admin console's, so the console is never a dead end.
 */
export function AccountMenu() {
  const { t } = useTranslation('dashboard');
  const member = useUserSession((state) => state.member);
  const clear = useUserSession((state) => state.clear);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  async function signOut() {
    await getPlatform().session.signOut();
    clear();
    queryClient.clear();
    void navigate('/auth', { replace: true });
  }

  return (
    <Group gap={10} wrap="nowrap" px={6} data-testid="account-menu">
      <Avatar color="indigo" radius="xl" size={30}>
        {member?.name.slice(0, 1)}
      </Avatar>
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={600} truncate>
          {member?.name}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {member?.email}
        </Text>
      </Box>
      <Tooltip label={t('nav.sign_out')}>
        <ActionIcon variant="subtle" color="gray" onClick={() => void signOut()} aria-label={t('nav.sign_out')}>
          <IconLogout size={17} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

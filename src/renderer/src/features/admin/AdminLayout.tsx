import { AppShell, Badge, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router-dom';
import { NAV_BAR_WIDTH_PX } from '../../../../shared/domain/constants';
import { useUserSession } from '../../stores/userSession';
import { useTenant } from '../../api/tenant';
import { IconLock, IconMegaphone } from '../../components/icons';
import { LanguageMenu } from '../../components/LanguageMenu';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import classes from '../../components/SideNav.module.css';

/** Non-admins who open the console see this and nothing else (spec §6). */
function RestrictedPage() {
  const { t } = useTranslation('admin');
  useDocumentTitle(t('restricted_title'));
  return (
    <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} h="100vh" bg="gray.0">
      <Stack align="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconLock size={28} />
        </ThemeIcon>
        <Title order={1} size="h3" data-testid="restricted-page">
          {t('restricted')}
        </Title>
      </Stack>
    </Center>
  );
}

/** Admin console frame: a side menu of the console areas beside the page. */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const isAdmin = useUserSession((state) => state.member?.is_admin ?? false);
  const tenant = useTenant();
  if (!isAdmin) return <RestrictedPage />;
  return (
    <AppShell navbar={{ width: NAV_BAR_WIDTH_PX, breakpoint: 0 }} padding={0}>
      <AppShell.Navbar p="sm" className={classes.navbar} aria-label={t('menu_label')}>
        <AppShell.Section px={8} pt={6} pb="lg">
          <Group gap={8} wrap="nowrap">
            <Text fw={700} truncate style={{ flex: 1 }}>
              {tenant.data?.tenant_name}
            </Text>
            <Badge size="sm" variant="light" color="indigo" style={{ flex: 'none' }}>
              {t('console_badge')}
            </Badge>
          </Group>
        </AppShell.Section>
        <AppShell.Section grow>
          <NavLink to="/admin/announcements" className={classes.link}>
            <IconMegaphone size={17} />
            {t('menu.announcements')}
          </NavLink>
        </AppShell.Section>
        <AppShell.Section>
          <LanguageMenu fullWidth />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} mih="100vh" bg="gray.0">
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

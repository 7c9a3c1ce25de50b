import { AppShell, Badge, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router-dom';
import { useUserSession } from '../../stores/userSession';
import { useTenant } from '../../api/tenant';
import { IconCpu, IconLock, IconMegaphone, IconShield, IconUserPlus } from '../../components/icons';
import { LanguageMenu } from '../../components/LanguageMenu';
import { SideNavbar, SideNavShell } from '../../components/SideNavShell';
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

/** Tenant name and the console badge, atop the menu or in the small-screen top bar. */
function ConsoleBrand() {
  const { t } = useTranslation('admin');
  const tenant = useTenant();
  return (
    <Group gap={8} wrap="nowrap">
      <Text fw={700} truncate style={{ flex: 1 }}>
        {tenant.data?.tenant_name}
      </Text>
      <Badge size="sm" variant="light" color="indigo" style={{ flex: 'none' }}>
        {t('console_badge')}
      </Badge>
    </Group>
  );
}

/** Admin console frame: a side menu of the console areas beside the page (a drawer on small screens). */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const isAdmin = useUserSession((state) => state.member?.is_admin ?? false);
  if (!isAdmin) return <RestrictedPage />;
  return (
    <SideNavShell
      brand={<ConsoleBrand />}
      mainProps={{ mih: '100dvh', bg: 'gray.0' }}
      navbar={
        <SideNavbar p="sm" aria-label={t('menu_label')}>
          <AppShell.Section grow>
            <NavLink to="/admin/announcements" className={classes.link}>
              <IconMegaphone size={17} />
              {t('menu.announcements')}
            </NavLink>
            <NavLink to="/admin/restricted-words" className={classes.link}>
              <IconShield size={17} />
              {t('security:nav')}
            </NavLink>
            <NavLink to="/admin/models" className={classes.link}>
              <IconCpu size={17} />
              {t('models:nav')}
            </NavLink>
            <NavLink to="/admin/sign-up" className={classes.link}>
              <IconUserPlus size={17} />
              {t('signup:admin.nav')}
            </NavLink>
          </AppShell.Section>
          <AppShell.Section>
            <LanguageMenu fullWidth />
          </AppShell.Section>
        </SideNavbar>
      }
    >
      <Outlet />
    </SideNavShell>
  );
}

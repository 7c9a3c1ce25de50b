import { AppShell, Badge, Button, Center, Divider, Group, ScrollArea, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { useUserSession } from '../../stores/userSession';
import { useTenant } from '../../api/tenant';
import { AccountMenu } from '../../components/AccountMenu';
import {
  IconChart,
  IconChat,
  IconCoins,
  IconCpu,
  IconFileText,
  IconBook,
  IconListCheck,
  IconLock,
  IconMail,
  IconMegaphone,
  IconSettings,
  IconShield,
  IconStudio,
  IconThumbUp,
  IconTool,
  IconUser,
  IconUserCheck,
  IconUserPlus,
  IconUsers,
} from '../../components/icons';
import { LanguageMenu } from '../../components/LanguageMenu';
import { SideNavbar, SideNavShell } from '../../components/SideNavShell';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import classes from '../../components/SideNav.module.css';
import { type MessageKey, messageText } from '../../i18n/keys';

/** Non-admins who open the console see this (spec §6), with the way back to their chats. */
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
        <Button component={Link} to="/dashboard/chat" mt="sm" data-testid="restricted-home">
          {t('restricted_home')}
        </Button>
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

/** The console's areas, in the menu's order, each named by its screen's namespace. */
const CONSOLE_AREAS = [
  { path: '/admin/dashboard', label: 'adminDashboard:nav', icon: IconChart },
  { path: '/admin/members', label: 'admin:menu.members', icon: IconUser },
  { path: '/admin/requests', label: 'admin:menu.requests', icon: IconUserCheck },
  { path: '/admin/credits', label: 'adminCredits:nav', icon: IconCoins },
  { path: '/admin/chatbots', label: 'publishing:nav', icon: IconStudio },
  { path: '/admin/default-chatbots', label: 'defaultChatbots:nav', icon: IconStudio },
  { path: '/admin/groups', label: 'adminGroups:nav', icon: IconUsers },
  { path: '/admin/invitations', label: 'adminInvitations:nav', icon: IconMail },
  { path: '/admin/models', label: 'models:nav', icon: IconCpu },
  { path: '/admin/mcp-servers', label: 'mcp:nav', icon: IconTool },
  { path: '/admin/feedback', label: 'feedback:admin.nav', icon: IconThumbUp },
  { path: '/admin/sign-up', label: 'signup:admin.nav', icon: IconUserPlus },
  { path: '/admin/sso', label: 'sso:admin.nav', icon: IconLock },
  { path: '/admin/sso-whitelist', label: 'ssoWhitelist:nav', icon: IconListCheck },
  { path: '/admin/settings', label: 'tenantSettings:nav', icon: IconSettings },
  { path: '/admin/announcements', label: 'admin:menu.announcements', icon: IconMegaphone },
  { path: '/admin/prompts', label: 'prompts:nav', icon: IconBook },
  { path: '/admin/restricted-words', label: 'security:nav', icon: IconShield },
  { path: '/admin/audit-log', label: 'audit:nav', icon: IconFileText },
] as const satisfies readonly { path: string; label: MessageKey; icon: unknown }[];

/**
 * Admin console frame: a side menu of the console areas beside the page (a drawer on small screens),
 * with the way back to chat, the language and the account menu (sign out) at its foot.
 */
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
          <AppShell.Section grow component={ScrollArea}>
            {CONSOLE_AREAS.map(({ path, label, icon: Icon }) => (
              <NavLink key={path} to={path} className={classes.link}>
                <Icon size={17} />
                {messageText(label)}
              </NavLink>
            ))}
          </AppShell.Section>
          <AppShell.Section>
            <Stack gap={4}>
              <Divider my={6} color="gray.2" />
              <NavLink to="/dashboard/chat" className={classes.link} data-testid="console-back-to-chat">
                <IconChat size={17} />
                {t('back_to_chat')}
              </NavLink>
              <LanguageMenu fullWidth />
              <Divider my={6} color="gray.2" />
              <AccountMenu />
            </Stack>
          </AppShell.Section>
        </SideNavbar>
      }
    >
      <Outlet />
    </SideNavShell>
  );
}

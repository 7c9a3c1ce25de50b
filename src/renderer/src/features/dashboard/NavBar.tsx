import { useState } from 'react';
import { AppShell, Avatar, Divider, Group, Image, ScrollArea, Stack, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useMatch } from 'react-router-dom';
import { isCreditsDepleted } from '../../../../shared/domain/credits';
import { getPlatform } from '../../platform';
import { useDashboardChatbots } from '../../api/chatbots';
import { membersApi } from '../../../../shared/api';
import { useEndpointQuery } from '../../api/endpointHooks';
import { useTenant } from '../../api/tenant';
import { useUserSession } from '../../stores/userSession';
import { AccountMenu } from '../../components/AccountMenu';
import { LanguageMenu } from '../../components/LanguageMenu';
import { SideNavbar } from '../../components/SideNavShell';
import { useApiReferenceUrl } from '../../api/apiReference';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { IconBook, IconCode, IconExternal, IconFileText, IconMail, IconPlus, IconShield, IconStore, IconStudio, IconUser } from '../../components/icons';
import { ContactModal } from '../contact/ContactModal';
import { CreditUsageIndicator } from '../credits/CreditUsageIndicator';
import { NEW_CHAT_LINK_ID, newChatPath } from './newChatTarget';
import { MySessions } from './MySessions';
import classes from './NavBar.module.css';
import sideNav from '../../components/SideNav.module.css';

export function TenantLogo() {
  const { t } = useTranslation('dashboard');
  const tenant = useTenant();
  const name = tenant.data?.tenant_name ?? '';
  return (
    <Link to="/dashboard/chat" aria-label={t('nav.home')} style={{ textDecoration: 'none', color: 'inherit' }} data-testid="nav-logo">
      {tenant.data?.logo_url ? (
        <Image src={tenant.data.logo_url} alt={name} h={32} w="auto" maw={220} fit="contain" />
      ) : (
        <Group gap={10} wrap="nowrap">
          <Avatar color="indigo" variant="filled" radius="md" size={30}>
            {name.slice(0, 1)}
          </Avatar>
          <Text fw={700} size="md" truncate>
            {name}
          </Text>
        </Group>
      )}
    </Link>
  );
}

function NewChatLink() {
  const { t } = useTranslation('dashboard');
  const memberId = useUserSession((state) => state.member?.id);
  const chatbots = useDashboardChatbots();
  const credit = useEndpointQuery(membersApi.getCreditCheck, { params: { id: memberId ?? 0 } }, { enabled: memberId !== undefined, errorToast: true });
  const tenant = useTenant();
  const openChat = useMatch({ path: '/dashboard/chat/:chatbotId', end: false });

  const to = newChatPath({
    chatbots: chatbots.data?.items ?? [],
    creditsDepleted: credit.data ? isCreditsDepleted(credit.data) : false,
    isLowLlmFree: tenant.data?.plan.is_low_llm_free ?? false,
    openChatbotId: openChat ? Number(openChat.params.chatbotId) : null,
  });
  return (
    <Link to={to} id={NEW_CHAT_LINK_ID} className={`${sideNav.link} ${classes.newChat}`} data-testid="new-chat">
      <IconPlus size={16} />
      {t('nav.new_chat')}
    </Link>
  );
}

/** Individual members have no administrator to ask: they write to the tenant's support (spec §2 contact modal). */
function ContactLink() {
  const { t } = useTranslation('contact');
  const [open, setOpen] = useState(false);
  return (
    <>
      <UnstyledButton className={sideNav.link} onClick={() => setOpen(true)} data-testid="contact-button">
        <IconMail size={17} />
        {t('open')}
      </UnstyledButton>
      <ContactModal opened={open} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * A page outside the app: a new tab on the web; on desktop the window-open handler of main hands it
 * to the system browser (src/main/windows/security.ts).
 */
function ExternalNavLink({ href, icon, label, testId }: { href: string; icon: React.ReactNode; label: string; testId: string }) {
  const { t } = useTranslation('dashboard');
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={sideNav.link} data-testid={testId}>
      {icon}
      {label}
      <IconExternal size={13} style={{ marginInlineStart: 'auto', opacity: 0.6 }} />
      <VisuallyHidden>{t('nav.new_tab')}</VisuallyHidden>
    </a>
  );
}

function NavFooter() {
  const { t } = useTranslation(['dashboard', 'account']);
  const member = useUserSession((state) => state.member);
  const manualUrl = useTenant().data?.manual_url;
  const docsUrl = useApiReferenceUrl(useResolvedLanguage());

  return (
    <Stack gap={4}>
      <NavLink to="/dashboard/my-page" className={sideNav.link} data-testid="nav-my-page">
        <IconUser size={17} />
        {t('account:my_page.nav')}
      </NavLink>
      <NavLink to="/dashboard/developers" className={sideNav.link}>
        <IconCode size={17} />
        {t('nav.developers')}
      </NavLink>
      {docsUrl && <ExternalNavLink href={docsUrl} icon={<IconFileText size={17} />} label={t('nav.docs')} testId="nav-docs" />}
      {manualUrl && <ExternalNavLink href={manualUrl} icon={<IconBook size={17} />} label={t('nav.manual')} testId="nav-manual" />}
      {member?.member_type === 'individual' && <ContactLink />}
      {member?.is_admin && (
        <UnstyledButton className={sideNav.link} onClick={() => getPlatform().openAdminConsole()} data-testid="admin-button">
          <IconShield size={17} />
          {t('nav.admin_console')}
        </UnstyledButton>
      )}
      <LanguageMenu fullWidth />
      <CreditUsageIndicator />
      <Divider my={6} color="gray.2" />
      <AccountMenu />
    </Stack>
  );
}

/** The dashboard navigation bar of spec §2 (264px; a drawer on small screens). */
export function NavBar() {
  const { t } = useTranslation('dashboard');
  return (
    <SideNavbar p="sm" aria-label={t('nav.label')}>
      <AppShell.Section>
        <Stack gap={4}>
          <NewChatLink />
          <Tooltip label={t('nav.studio_tooltip')} position="right">
            <NavLink to="/dashboard/studio" className={sideNav.link}>
              <IconStudio size={17} />
              {t('nav.studio')}
            </NavLink>
          </Tooltip>
          <Tooltip label={t('nav.store_tooltip')} position="right">
            <NavLink to="/dashboard/store" className={sideNav.link}>
              <IconStore size={17} />
              {t('nav.store')}
            </NavLink>
          </Tooltip>
        </Stack>
      </AppShell.Section>
      <Divider my="sm" color="gray.2" />
      <AppShell.Section grow component={ScrollArea} type="hover" scrollbarSize={6}>
        <MySessions />
      </AppShell.Section>
      <Divider my="sm" color="gray.2" />
      <AppShell.Section>
        <NavFooter />
      </AppShell.Section>
    </SideNavbar>
  );
}

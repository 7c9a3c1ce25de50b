import { useState } from 'react';
import { Button, Checkbox, Group, Modal, ScrollArea, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { announcementsApi } from '../../../../shared/api';
import { useEndpointQuery } from '../../api/endpointHooks';
import { useTenant } from '../../api/tenant';
import { MarkdownContent } from '../../components/MarkdownContent';
import { focusMessageBoxOrMain } from '../../components/mainContent';
import { formatDate } from '../../i18n/formatDate';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { dismissAnnouncement, isAnnouncementDismissed } from './announcementDismissal';

/**
 * The active announcement over the dashboard (spec §2) until the user closes it: with "Don't show
 * this again" for good, otherwise for this browser session. A different active announcement shows.
 */
export function AnnouncementPopup() {
  const { t } = useTranslation('announcements');
  const language = useResolvedLanguage();
  const subdomain = useTenant().data?.subdomain;
  const announcement = useEndpointQuery(announcementsApi.getActiveAnnouncement, {}).data?.announcement ?? null;
  const [closedId, setClosedId] = useState<number | null>(null);
  const [dontShowAgain, setDontShowAgain] = useState(false);

  const opened =
    announcement !== null &&
    subdomain !== undefined &&
    announcement.id !== closedId &&
    !isAnnouncementDismissed(localStorage, subdomain, announcement.id) &&
    !isAnnouncementDismissed(sessionStorage, subdomain, announcement.id);

  function close() {
    if (!announcement || subdomain === undefined) return;
    dismissAnnouncement(dontShowAgain ? localStorage : sessionStorage, subdomain, announcement.id);
    setClosedId(announcement.id);
    setDontShowAgain(false);
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      // It opens by itself, often before anything had focus: when there is nothing to hand focus
      // back to, it goes to the message box (the chat the dashboard opens), else to the page,
      // instead of staying in the closing dialog or on <body>.
      onExitTransitionEnd={() => {
        const active = document.activeElement;
        if (!active || active === document.body || active.closest('[role="dialog"]')) focusMessageBoxOrMain();
      }}
      withCloseButton={false}
      centered
      size="lg"
      radius="lg"
      title={t('title')}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {announcement && (
        <>
          <Text size="sm" c="dimmed" mb="sm" data-testid="announcement-popup-date">
            {formatDate(announcement.created_at, language)}
          </Text>
          <ScrollArea.Autosize mah="60dvh" type="auto">
            <MarkdownContent markdown={announcement.content} />
          </ScrollArea.Autosize>
        </>
      )}
      <Group justify="space-between" mt="xl">
        <Checkbox label={t('dont_show_again')} checked={dontShowAgain} onChange={(event) => setDontShowAgain(event.currentTarget.checked)} />
        <Button onClick={close}>{t('close')}</Button>
      </Group>
    </Modal>
  );
}

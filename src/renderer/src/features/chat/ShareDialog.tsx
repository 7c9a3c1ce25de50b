import { useEffect, useState } from 'react';
import { ActionIcon, Group, Modal, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sessionsApi, type Session } from '../../../../shared/api';
import { endpointKey, useEndpointMutation } from '../../api/endpointHooks';
import { sharedSessionUrl } from '../../api/publicSessions';
import { IconShare } from '../../components/icons';
import { CopyButton } from '../../components/CopyButton';

function useSharedUrl(hashId: string): string {
  const [url, setUrl] = useState('');
  useEffect(() => {
    let current = true;
    void sharedSessionUrl(hashId).then((value) => current && setUrl(value));
    return () => {
      current = false;
    };
  }, [hashId]);
  return url;
}

/** The link of a public session, read-only and selectable, with its copy button. */
export function ShareLink({ hashId }: { hashId: string }) {
  const { t } = useTranslation('sharing');
  const url = useSharedUrl(hashId);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput flex={1} readOnly label={t('share.link')} value={url} onFocus={(event) => event.currentTarget.select()} data-testid="share-link" />
      <CopyButton text={url} label={t('share.copyLink')} testId="copy-link" />
    </Group>
  );
}

/** The public page's share dialog: the link only (the page exists because the session is public). */
export function ShareLinkDialog({ hashId, opened, onClose }: { hashId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('sharing');
  return (
    <Modal opened={opened} onClose={onClose} title={t('share.title')} size="md">
      <Stack gap="sm">
        <Text size="sm">{t('share.publicHint')}</Text>
        <ShareLink hashId={hashId} />
      </Stack>
    </Modal>
  );
}

/**
 * The chat header's Share button and dialog: a switch makes the session public (anyone with the
 * link may read it and start their own chat) or private again, and a public one shows its link.
 * The dialog stays mounted so Mantine returns focus to the button.
 */
export function ShareSessionButton({ session }: { session: Session }) {
  const { t } = useTranslation('sharing');
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  // Makes the session public (anyone with the link may read it) or private again.
  const share = useEndpointMutation(sessionsApi.patchSession, {
    invalidates: [sessionsApi.listSessions],
    onSuccess: (updated) => queryClient.setQueryData(endpointKey(sessionsApi.getSession, { params: { hash: updated.hash_id } }), updated),
  });
  const isPublic = share.isPending ? (share.variables.body.is_public ?? session.is_public) : session.is_public;
  return (
    <>
      <Tooltip label={t('share.open')}>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('share.open')} onClick={() => setOpened(true)} data-testid="share-session">
          <IconShare size={15} />
        </ActionIcon>
      </Tooltip>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('share.title')} size="md">
        <Stack gap="sm">
          <Switch
            data-autofocus
            checked={isPublic}
            disabled={share.isPending}
            onChange={(event) => share.mutate({ params: { hash: session.hash_id }, body: { is_public: event.currentTarget.checked } })}
            label={t('share.publicSwitch')}
            description={isPublic ? t('share.publicHint') : t('share.privateHint')}
          />
          {isPublic && !share.isPending && <ShareLink hashId={session.hash_id} />}
        </Stack>
      </Modal>
    </>
  );
}

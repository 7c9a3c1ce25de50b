import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ssoApi } from '../../../../shared/api';
import { errorMessageKey } from '../../api/errorMessages';
import { useEndpointMutation } from '../../api/endpointHooks';
import { useSsoPlatforms } from '../../api/ssoPlatforms';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useUserSession } from '../../stores/userSession';
import { useSsoStart } from './useSsoStart';
import { messageText } from '../../i18n/keys';

/** My page (spec §2 "SSO account connection"): the connected platform for one-click sign-in, or a way to connect one. */
export function SsoAccountSection() {
  const { t } = useTranslation('sso');
  const member = useUserSession((state) => state.member);
  const setMember = useUserSession((state) => state.setMember);
  const platforms = useSsoPlatforms();
  const { start, busyId, failure, dialog } = useSsoStart('connect');
  const [confirming, setConfirming] = useState(false);
  // A refusal is said above the section, not in a toast.
  const disconnect = useEndpointMutation(ssoApi.disconnectSsoAccount, { errorToast: false, onSuccess: setMember, onSettled: () => setConfirming(false) });
  const disconnectFailure = disconnect.error && messageText(errorMessageKey(disconnect.error, ssoApi.disconnectSsoAccount));
  if (!member || !platforms.data) return null;
  const connected = platforms.data.items.find((platform) => platform.id === member.sso_platform_id);

  const problem = failure ?? disconnectFailure;
  return (
    <Stack gap="sm" maw={420} data-testid="sso-account">
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {connected ? (
        <>
          <Text size="sm">{t('connected_to', { name: connected.sso_platform_name })}</Text>
          <Button variant="light" color="red" style={{ alignSelf: 'flex-start' }} onClick={() => setConfirming(true)}>
            {t('disconnect')}
          </Button>
        </>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('connect_hint')}
          </Text>
          <Group>
            {platforms.data.items.map((platform) => (
              <Button key={platform.id} variant="default" loading={busyId === platform.id} onClick={() => start(platform)}>
                {t('connect', { name: platform.sso_platform_name })}
              </Button>
            ))}
          </Group>
        </>
      )}
      {dialog}
      <ConfirmDialog
        opened={confirming}
        title={t('disconnect_title')}
        body={t('disconnect_message', { name: connected?.sso_platform_name ?? '' })}
        cancelLabel={t('cancel')}
        confirmLabel={t('disconnect')}
        onConfirm={() => disconnect.mutate({ params: { id: member.id } })}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

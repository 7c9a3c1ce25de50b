import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SsoPlatform } from '../../../../shared/api';
import { useSsoStart } from './useSsoStart';

interface Props {
  platforms: SsoPlatform[];
  /** SSO-only tenants lead with SSO: no "or" above it, the email form is for administrators. */
  ssoOnly: boolean;
}

/** The sign-in page's SSO part (spec §2 "SSO login"): a button per platform; a directory asks for the user ID. */
export default function SsoOptions({ platforms, ssoOnly }: Props) {
  const { t } = useTranslation('sso');
  const { start, busyId, failure, dialog } = useSsoStart('sign_in');
  return (
    <Stack gap="sm" data-testid="sso-options">
      {!ssoOnly && <Divider label={t('or')} labelPosition="center" />}
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="sso-error">
          {failure}
        </Alert>
      )}
      {platforms.map((platform) => (
        <Button key={platform.id} variant={ssoOnly ? 'filled' : 'default'} size="md" fullWidth loading={busyId === platform.id} onClick={() => start(platform)}>
          {t('sign_in_with', { name: platform.sso_platform_name })}
        </Button>
      ))}
      {dialog}
    </Stack>
  );
}

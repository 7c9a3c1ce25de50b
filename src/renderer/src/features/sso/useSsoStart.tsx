import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SsoPlatform } from '../../../../shared/api';
import { getPlatform } from '../../platform';
import type { SsoIntent } from '../../platform/types';
import { DirectoryDialog } from './DirectoryDialog';
import { ssoFailureKey, useSsoCompletion, verifyReturn } from './useSsoCompletion';

/**
 * Starting SSO with a platform, for signing in or connecting: an OpenID Connect provider's page (the
 * web leaves for it; desktop opens the system browser and waits), or the directory dialog.
 */
export function useSsoStart(intent: SsoIntent) {
  const { t } = useTranslation('sso');
  const complete = useSsoCompletion();
  const [directory, setDirectory] = useState<SsoPlatform | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function start(platform: SsoPlatform) {
    setFailure(null);
    if (platform.kind === 'directory') return setDirectory(platform);
    setBusyId(platform.id);
    try {
      const answer = await getPlatform().sso.authorize(platform.id, intent);
      if ('error' in answer.callback) return setFailure(t('errors.provider_refused'));
      await complete(platform.id, intent, await verifyReturn(answer));
    } catch (error) {
      setFailure(t(ssoFailureKey(error)));
    } finally {
      setBusyId(null);
    }
  }

  const dialog = directory && (
    <DirectoryDialog
      platform={directory}
      onClose={() => setDirectory(null)}
      onVerified={async (identity) => {
        await complete(directory.id, intent, identity);
        setDirectory(null);
      }}
    />
  );
  return { start, busyId, failure, dialog };
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ssoApi, type SsoPlatform } from '../../../../shared/api';
import { useEndpointMutation } from '../../api/endpointHooks';
import { getPlatform } from '../../platform';
import type { SsoIntent } from '../../platform/types';
import { DirectoryDialog } from './DirectoryDialog';
import { ssoFailureKey, useSsoCompletion } from './useSsoCompletion';
import { messageText } from '../../i18n/keys';

/** The provider's page answered with a refusal (the user cancelled, or it declined). */
class ProviderRefused extends Error {}

/**
 * Starting SSO with a platform, for signing in or connecting: an OpenID Connect provider's page (the
 * web leaves for it; desktop opens the system browser and waits), or the directory dialog.
 */
export function useSsoStart(intent: SsoIntent) {
  const { t } = useTranslation('sso');
  const { verifyReturn, complete } = useSsoCompletion();
  const [directory, setDirectory] = useState<SsoPlatform | null>(null);
  // The provider's round trip, then its verification and the step after it: one call as the screen sees it (named by the verify endpoint).
  const viaProvider = useEndpointMutation(ssoApi.ssoVerify, {
    errorToast: false,
    send: async (platform: SsoPlatform) => {
      const answer = await getPlatform().sso.authorize(platform.id, intent);
      if ('error' in answer.callback) throw new ProviderRefused();
      await complete(platform.id, intent, await verifyReturn(answer));
    },
  });
  const busyId = viaProvider.isPending ? viaProvider.variables.id : null;
  const failure =
    viaProvider.error && (viaProvider.error instanceof ProviderRefused ? t('errors.provider_refused') : messageText(ssoFailureKey(viaProvider.error)));

  function start(platform: SsoPlatform) {
    viaProvider.reset();
    if (platform.kind === 'directory') return setDirectory(platform);
    viaProvider.mutate(platform);
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

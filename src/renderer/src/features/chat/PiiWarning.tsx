import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type PiiKind, findPii, piiVerdict } from '../../../../shared/domain/pii';
import { piiSettingsApi } from '../../../../shared/api';
import { useEndpointQuery } from '../../api/endpointHooks';

/**
 * Under the message box: names the personal data found in the draft and what the tenant's settings
 * will do with it (blocked, or masked before sending). Only a warning; the server decides. The
 * settings are fetched the first time the draft holds something that looks like personal data.
 */
export function PiiWarning({ text }: { text: string }) {
  const { t, i18n } = useTranslation('security');
  const looksPersonal = findPii(text).length > 0;
  const settings = useEndpointQuery(piiSettingsApi.getPiiSettings, {}, { staleTime: 60_000, enabled: looksPersonal });
  const verdict = looksPersonal && settings.data ? piiVerdict(text, settings.data) : { blocked: [], masked: [] };
  const names = (kinds: PiiKind[]) => new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(kinds.map((kind) => t(`kinds.${kind}`)));
  const message =
    verdict.blocked.length > 0
      ? t('warning.blocked', { kinds: names(verdict.blocked) })
      : verdict.masked.length > 0
        ? t('warning.masked', { kinds: names(verdict.masked) })
        : '';
  return (
    <Text role="status" size="xs" c={verdict.blocked.length > 0 ? 'red.8' : 'orange.9'} px={14} pb={message ? 4 : 0} data-testid="pii-warning">
      {message}
    </Text>
  );
}

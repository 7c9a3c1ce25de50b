import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { getPlatform } from '../../platform';
import { ssoFailureKey, useSsoCompletion } from './useSsoCompletion';
import { messageText } from '../../i18n/keys';

/** Route SSO_WEB_CALLBACK_PATH: the provider sent the browser back; finish signing in (or connecting). */
export default function SsoCallbackPage() {
  const { t } = useTranslation('sso');
  const location = useLocation();
  const { verifyReturn, complete } = useSsoCompletion();
  const [failure, setFailure] = useState<string | null>(null);
  const [backTo, setBackTo] = useState('/auth');
  const started = useRef(false);
  useDocumentTitle(t('callback_title'));

  useEffect(() => {
    // Once: the kept verifier is single-use, and React may run effects twice in development.
    if (started.current) return;
    started.current = true;
    void (async () => {
      const answer = await getPlatform().sso.takeReturn(location);
      if (!answer) return setFailure(t('errors.no_sign_in_started'));
      if (answer.intent === 'connect') setBackTo('/dashboard/my-page');
      if ('error' in answer.callback) return setFailure(t('errors.provider_refused'));
      try {
        await complete(answer.platformId, answer.intent, await verifyReturn(answer));
      } catch (error) {
        setFailure(messageText(ssoFailureKey(error)));
      }
    })();
  }, [complete, verifyReturn, location, t]);

  return (
    <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} mih="100vh" px="md">
      <Paper w="100%" maw={420} p="xl" radius="lg" withBorder>
        {failure ? (
          <Stack gap="md">
            <Alert color="red" role="alert" title={t('callback_failed')}>
              {failure}
            </Alert>
            <Anchor component={Link} to={backTo}>
              {backTo === '/auth' ? t('back_to_sign_in') : t('back_to_my_page')}
            </Anchor>
          </Stack>
        ) : (
          <Stack align="center" gap="sm" role="status">
            <Loader aria-hidden />
            <Text>{t('signing_in')}</Text>
          </Stack>
        )}
      </Paper>
    </Center>
  );
}

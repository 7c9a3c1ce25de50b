import { useEffect, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router-dom';
import { getPlatform } from '../platform';
import { showToast } from '../components/toast';
import { SkipLink } from '../components/SkipLink';
import { useUserSession } from '../stores/userSession';
import { useMemberLanguageSync, useResolvedLanguage } from '../i18n/useLanguage';
import { i18next } from '../i18n';

/**
 * Root of every route: resumes the session once (refresh cookie on the web, keychain on desktop),
 * keeps i18next and the member record on the resolved language, and sends the user to /auth with
 * the matching toast
 * when a refresh fails later (spec §8).
 */
export function SessionRoot() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [restored, setRestored] = useState(false);
  const language = useResolvedLanguage();
  useMemberLanguageSync();

  useEffect(() => {
    if (i18next.language !== language) void i18next.changeLanguage(language);
    document.documentElement.lang = language;
  }, [language]);

  useEffect(() => {
    const { setMember, clear } = useUserSession.getState();
    let cancelled = false;
    getPlatform()
      .session.restore()
      .then((member) => (member ? setMember(member) : clear()))
      .catch(() => clear())
      .finally(() => !cancelled && setRestored(true));
    return () => {
      cancelled = true;
    };
  }, []);

  // Desktop without an OS keychain: the session lasts only until the app quits (DESIGN §5).
  const { t: td } = useTranslation('desktop');
  useEffect(() => getPlatform().session.onSecureStorageUnavailable?.(() => showToast('info', td('keychain_unavailable'))), [td]);

  useEffect(
    () =>
      getPlatform().session.onEnded((reason) => {
        useUserSession.getState().clear();
        queryClient.clear();
        showToast('error', t(reason));
        void navigate('/auth', { replace: true });
      }),
    [navigate, queryClient, t],
  );

  if (!restored) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  return (
    <>
      <SkipLink />
      <Outlet />
    </>
  );
}

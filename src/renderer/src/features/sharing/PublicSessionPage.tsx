import { useCallback, useMemo, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { isApiError, publicSessionsApi } from '../../../../shared/api';
import { SHARED_SESSION_ROUTE } from '../../../../shared/domain/sharing';
import { useEndpointQuery } from '../../api/endpointHooks';
import { usePublicSessionHistory } from './publicHistory';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { Composer } from '../chat/Composer';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { historyBesideRun, useOlderPages } from '../chat/history';
import { visitorModesBody } from '../chat/modes/modesStore';
import { useWebSearchStore } from '../sources/webSearchStore';
import type { ChatbotFace } from '../chat/Messages';
import { ShareLinkDialog } from '../chat/ShareDialog';
import { StartChatDialog } from './StartChatDialog';
import { PublicNotFound } from './PublicNotFound';
import { PublicHeader } from './PublicHeader';
import { PublicThread } from './PublicThread';
import classes from './sharing.module.css';
import { useVisitorRun } from './useVisitorRun';
import { useLinkWorkspace } from './useLinkWorkspace';

/**
 * The public shared-session page (spec §2, §4): no sign-in, calls carry the token value `public`.
 * It shows who shared the chat, the chatbot and the history. "Start a new chat" opens a dialog;
 * a signed-out visitor of a public chatbot then chats on this page as a new visitor session (its
 * own link, which the address bar takes at the first answer), while the shared chat stays at its
 * link. A visitor session of a public chatbot can be continued by whoever has its link.
 */
export default function PublicSessionPage() {
  const { hash = '' } = useParams();
  const { t } = useTranslation('sharing');
  const language = useResolvedLanguage();
  const navigate = useNavigate();
  const { member, ready } = useLinkWorkspace();
  // A private (or unknown) session answers 404: said at once, not retried.
  const session = useEndpointQuery(publicSessionsApi.getPublicSession, { params: { hash } }, { enabled: ready, retry: false });
  const history = usePublicSessionHistory(hash, ready);
  /** A fresh visitor chat was started from the dialog and has not been sent yet. */
  const [fresh, setFresh] = useState(false);
  const [dialog, setDialog] = useState<'start' | 'share' | null>(null);

  const data = session.data;
  const title = fresh ? t('public.newChat') : data?.title || t('public.untitled');
  useDocumentTitle(data ? title : null);
  const canChat = !member && data !== undefined && data.chatbot.is_public && (fresh || data.creator_name === null);
  const visitorModes = useEndpointQuery(
    publicSessionsApi.getPublicChatbot,
    { params: { hash: data?.chatbot.hash_id ?? '' } },
    { enabled: canChat, retry: false },
  ).data?.visitor_modes;

  const onSessionCreated = useCallback(
    (created: string) => {
      // The new chat gets its own link at once; the shared one stays where it was.
      setFresh(false);
      void navigate(`${SHARED_SESSION_ROUTE}/${created}`);
    },
    [navigate],
  );
  const modes = useCallback(() => (visitorModes ? visitorModesBody(visitorModes, useWebSearchStore.getState().on) : {}), [visitorModes]);
  const { run, runMeta, streaming, send, stop, reset } = useVisitorRun({
    chatbot: data?.chatbot,
    sessionHash: fresh ? undefined : hash,
    modes,
    onSessionCreated,
  });

  const face = useMemo<ChatbotFace>(
    () => ({ name: data ? chatbotName(data.chatbot, language) : '', imageUrl: data?.chatbot.profile_image_url ?? null }),
    [data, language],
  );
  const messages = useMemo(() => (fresh ? [] : historyBesideRun(history.data, runMeta)), [fresh, history.data, runMeta]);
  const olderPages = useOlderPages(history, { listed: !fresh });

  const startFresh = () => {
    reset();
    setFresh(true);
    setDialog(null);
  };

  if (session.isError && isApiError(session.error) && session.error.status === 404)
    return <PublicNotFound title={t('public.notFound')} hint={t('public.notFoundHint')} testId="shared-session-missing" />;

  const body = (
    <PublicThread
      error={session.isError || (history.isError && !history.data) ? (session.error ?? history.error) : null}
      loading={!data || (!fresh && history.isPending)}
      messages={messages}
      run={run}
      face={face}
      {...olderPages}
      empty={
        <Text c="dimmed" ta="center" py={60}>
          {fresh ? t('public.freshHint', { name: face.name }) : t('public.empty')}
        </Text>
      }
    />
  );

  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.publicPage} data-testid="shared-session-page">
      <PublicHeader
        face={face}
        title={title}
        titleTestId="shared-session-title"
        subtitle={
          data && (
            <Text size="xs" c="dimmed" data-testid="shared-session-creator">
              <Text span inherit fw={600} c="var(--mantine-color-text)">
                {face.name}
              </Text>
              {' · '}
              {data.creator_name === null ? t('public.byVisitor') : t('public.sharedBy', { name: data.creator_name })}
            </Text>
          )
        }
        onShare={fresh ? undefined : () => setDialog('share')}
        newChat={{ label: t('start.button'), onClick: () => setDialog('start'), disabled: !data, testId: 'start-new-chat' }}
      />
      {body}
      {canChat && <Composer onSend={send} onStop={stop} streaming={streaming} conversationKey={fresh ? 'fresh' : hash} visitor visitorModes={visitorModes} />}
      <ShareLinkDialog hashId={hash} opened={dialog === 'share'} onClose={() => setDialog(null)} />
      {data && <StartChatDialog session={data} opened={dialog === 'start'} onClose={() => setDialog(null)} onStartVisitorChat={startFresh} />}
    </main>
  );
}

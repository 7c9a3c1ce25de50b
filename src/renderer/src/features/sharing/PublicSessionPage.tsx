import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { ActionIcon, Avatar, Button, Center, Group, Loader, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { isApiError, type PublicSession } from '../../../../shared/api';
import { SHARED_SESSION_ROUTE, SHARED_WORKSPACE_PARAM } from '../../../../shared/domain/sharing';
import { streamChat } from '../../api/chat';
import { errorKeyOf } from '../../api/errorMessages';
import { adoptLinkWorkspace, generatePublicSessionTitle, usePublicSession, usePublicSessionHistory } from '../../api/publicSessions';
import { queryKeys } from '../../api/queryKeys';
import { IconPlus, IconShare } from '../../components/icons';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';
import { useActiveRunStore } from '../chat/activeRun';
import { ChatRun, type ChatRunSnapshot } from '../chat/chatRun';
import { Composer } from '../chat/Composer';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { flattenHistory, type HistoryData } from '../chat/history';
import { MessageList } from '../chat/MessageList';
import type { ChatbotFace } from '../chat/Messages';
import chatClasses from '../chat/chat.module.css';
import { ShareLinkDialog } from './ShareDialog';
import { StartChatDialog } from './StartChatDialog';
import classes from './sharing.module.css';

const noSubscription = () => () => {};

/** The link's workspace is in effect before the page asks for anything (see adoptLinkWorkspace). */
function useLinkWorkspace(workspace: string | null, signedIn: boolean): { ready: boolean } {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let current = true;
    void adoptLinkWorkspace(workspace, signedIn).finally(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [workspace, signedIn]);
  return { ready };
}

function NotShared() {
  const { t } = useTranslation('sharing');
  const member = useUserSession((state) => state.member);
  useDocumentTitle(t('public.notFound'));
  return (
    <Center h="100dvh" p="lg" data-testid="shared-session-missing">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Title order={1} fz="h3">
          {t('public.notFound')}
        </Title>
        <Text c="dimmed">{t('public.notFoundHint')}</Text>
        <Button component={Link} to={member ? '/dashboard/chat' : '/auth'}>
          {member ? t('unavailable.toDefault') : t('public.signIn')}
        </Button>
      </Stack>
    </Center>
  );
}

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
  const member = useUserSession((state) => state.member);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const workspace = useLinkWorkspace(params.get(SHARED_WORKSPACE_PARAM), member !== null);
  const session = usePublicSession(hash, workspace.ready);
  const history = usePublicSessionHistory(hash, workspace.ready);
  /** A fresh visitor chat was started from the dialog and has not been sent yet. */
  const [fresh, setFresh] = useState(false);
  const [run, setRun] = useState<ChatRun | null>(null);
  const [dialog, setDialog] = useState<'start' | 'share' | null>(null);
  const runMeta = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.getSnapshot().meta ?? null);
  const streaming = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.isActive ?? false);

  const data = session.data;
  const title = fresh ? t('public.newChat') : data?.title || t('public.untitled');
  useDocumentTitle(data ? title : null);

  const face = useMemo<ChatbotFace>(
    () => ({ name: data ? chatbotName(data.chatbot, language) : '', imageUrl: data?.chatbot.profile_image_url ?? null }),
    [data, language],
  );
  const messages = useMemo(() => {
    if (fresh) return [];
    const all = flattenHistory(history.data);
    return runMeta ? all.filter((message) => message.id !== runMeta.member_message_id && message.id !== runMeta.chatbot_message_id) : all;
  }, [fresh, history.data, runMeta]);

  const canChat = !member && data !== undefined && data.chatbot.is_public && (fresh || data.creator_name === null);

  const send = useCallback(
    (text: string) => {
      if (!data) return;
      run?.stop();
      const next: ChatRun = new ChatRun({
        chatbotId: data.chatbot.id,
        body: { text, session_hash_id: fresh ? undefined : hash },
        streamChat: (request) => streamChat({ ...request, visitor: { language } }),
        onMeta: (meta) => {
          if (!meta.session_created) return;
          // The new chat gets its own link at once; the shared one stays where it was.
          const empty: HistoryData = { pages: [{ items: [], has_more: false, context_tokens: 0 }], pageParams: [undefined] };
          queryClient.setQueryData(queryKeys.publicSessionHistory(meta.session_hash_id), empty);
          queryClient.setQueryData<PublicSession>(queryKeys.publicSession(meta.session_hash_id), { ...data, hash_id: meta.session_hash_id, title: null, creator_name: null });
          setFresh(false);
          void navigate(`${SHARED_SESSION_ROUTE}/${meta.session_hash_id}`);
        },
        onSettled: (snapshot: ChatRunSnapshot) => {
          if (snapshot.rejected) {
            if (useActiveRunStore.getState().draft === '') useActiveRunStore.setState({ draft: snapshot.memberText });
            return;
          }
          const hashId = snapshot.meta?.session_hash_id;
          if (!hashId) return;
          void queryClient.refetchQueries({ queryKey: queryKeys.publicSessionHistory(hashId), exact: true }).then(() => {
            if (snapshot.error === null) setRun((current) => (current === next ? null : current));
          });
          if (snapshot.meta?.session_created) {
            generatePublicSessionTitle(hashId, language).then(
              (titled) => queryClient.setQueryData(queryKeys.publicSession(hashId), titled),
              () => undefined, // The chat keeps working untitled.
            );
          }
        },
      });
      setRun(next);
      void next.start();
    },
    [data, fresh, hash, language, navigate, queryClient, run],
  );

  const startFresh = () => {
    run?.stop();
    setRun(null);
    setFresh(true);
    setDialog(null);
  };

  if (session.isError && isApiError(session.error) && session.error.status === 404) return <NotShared />;

  let body;
  if (session.isError || (history.isError && !history.data)) {
    body = (
      <Center flex={1}>
        <Text>{t(errorKeyOf(session.error ?? history.error))}</Text>
      </Center>
    );
  } else if (!data || (!fresh && history.isPending)) {
    body = (
      <Center flex={1}>
        <Loader aria-label={t('public.loading')} />
      </Center>
    );
  } else {
    body = (
      <MessageList
        messages={messages}
        run={run}
        face={face}
        hasOlder={!fresh && history.hasNextPage}
        loadingOlder={history.isFetchingNextPage}
        onLoadOlder={() => void history.fetchNextPage()}
        empty={
          <Text c="dimmed" ta="center" py={60}>
            {fresh ? t('public.freshHint', { name: face.name }) : t('public.empty')}
          </Text>
        }
      />
    );
  }

  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.publicPage} data-testid="shared-session-page">
      <header className={chatClasses.header}>
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Avatar src={face.imageUrl} alt="" radius="xl" color="indigo">
              {face.name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Stack gap={0} miw={0}>
              <Title order={1} fz="md" fw={650} lineClamp={1} data-testid="shared-session-title">
                {title}
              </Title>
              {data && (
                <Text size="xs" c="dimmed" data-testid="shared-session-creator">
                  <Text span inherit fw={600} c="var(--mantine-color-text)">
                    {face.name}
                  </Text>
                  {' · '}
                  {data.creator_name === null ? t('public.byVisitor') : t('public.sharedBy', { name: data.creator_name })}
                </Text>
              )}
            </Stack>
          </Group>
          <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }}>
            {!fresh && (
              <Tooltip label={t('share.open')}>
                <ActionIcon variant="subtle" color="gray" aria-label={t('share.open')} onClick={() => setDialog('share')} data-testid="share-session">
                  <IconShare size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => setDialog('start')}
              disabled={!data}
              classNames={{ label: chatClasses.newSessionLabel, section: chatClasses.newSessionIcon }}
              data-testid="start-new-chat"
            >
              {t('start.button')}
            </Button>
          </Group>
        </Group>
      </header>
      {body}
      {canChat && <Composer onSend={send} onStop={() => run?.stop()} streaming={streaming} conversationKey={fresh ? 'fresh' : hash} visitor />}
      <ShareLinkDialog hashId={hash} opened={dialog === 'share'} onClose={() => setDialog(null)} />
      {data && <StartChatDialog session={data} opened={dialog === 'start'} onClose={() => setDialog(null)} onStartVisitorChat={startFresh} />}
    </main>
  );
}

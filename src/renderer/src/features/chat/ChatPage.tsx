import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Center, EmptyState, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { chatbotsApi, isApiError, sessionsApi, type Chatbot, type SessionFile } from '../../../../shared/api';
import { streamChat } from '../../api/chat';
import { modesBody } from './modes/modesStore';
import { startingChatbot, useDashboardChatbots } from '../../api/chatbots';
import { endpointKey, invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { errorKeyOf, errorMessageKey } from '../../api/errorMessages';
import { IconChat } from '../../components/icons';
import { showToast } from '../../components/toast';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { discardActiveRun, useActiveRunStore } from './activeRun';
import { ChatRun, type ChatRunSnapshot } from './chatRun';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { appendTurn, historyBesideRun, seedEmptyHistory, sessionHistoryKey, useSessionHistory } from './history';
import { ChatHeader } from './ChatHeader';
import { ChatbotUnavailable } from './ChatbotUnavailable';
import { webSearchFields } from '../sources/webSearchStore';
import { Composer } from './Composer';
import { ChatDropZone } from './attachments/ChatDropZone';
import { attachFiles, restoreAttachments, takeAttachments } from './attachments/attachmentsStore';
import { LongConversationBanner } from './LongConversationBanner';
import { CreditBanner } from './CreditBanner';
import { MessageList } from './MessageList';
import type { AskAgain, ChatbotFace } from './Messages';
import { isCutOff } from './chatErrors';
import classes from './chat.module.css';

const noSubscription = () => () => {};

/**
 * /dashboard/chat without a chatbot opens the first default chatbot (dashboard start, spec §7) the
 * member may use; when their groups may use none of the models, it says so instead.
 */
function DefaultChatbotRedirect() {
  const { t } = useTranslation('chat');
  const chatbots = useDashboardChatbots();
  if (chatbots.isPending) {
    return (
      <Center flex={1}>
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }
  const items = chatbots.data?.items ?? [];
  const target = startingChatbot(items);
  if (target) return <Navigate to={`/dashboard/chat/${target.id}`} replace />;
  const reason = items.length > 0 ? 'noUsableChatbot' : 'noChatbots';
  return (
    <Center flex={1}>
      <EmptyState
        icon={<IconChat size={28} />}
        title={chatbots.isError ? t(errorKeyOf(chatbots.error)) : t(`empty.${reason}`)}
        description={chatbots.isError ? undefined : t(`empty.${reason}Hint`)}
      />
    </Center>
  );
}

function Unavailable({ title, onNewSession }: { title: string; onNewSession?: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <Center flex={1}>
      <EmptyState icon={<IconChat size={28} />} title={title}>
        {onNewSession && <Button onClick={onNewSession}>{t('session.newButton')}</Button>}
      </EmptyState>
    </Center>
  );
}

function Welcome({ chatbot }: { chatbot: Chatbot | undefined }) {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  if (!chatbot) return null;
  const features = language === 'ko' ? chatbot.ko_key_features || chatbot.en_key_features : chatbot.en_key_features || chatbot.ko_key_features;
  return (
    <Stack align="center" gap="xs" py={60} ta="center" data-testid="chat-welcome">
      <Title order={3}>{t('empty.title', { name: chatbotName(chatbot, language) })}</Title>
      {features && (
        <Text c="dimmed" maw={520}>
          {features}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {t('empty.hint')}
      </Text>
    </Stack>
  );
}

function HistorySkeleton() {
  return (
    <Stack maw={772} mx="auto" w="100%" p="lg" gap="lg" aria-busy="true">
      <Skeleton height={38} width="45%" ml="auto" radius="lg" />
      <Skeleton height={72} width="85%" radius="lg" />
      <Skeleton height={38} width="35%" ml="auto" radius="lg" />
      <Skeleton height={96} width="90%" radius="lg" />
    </Stack>
  );
}

/** Titles the new session from its first message; a failure just leaves it Untitled (no toast: the session keeps working). */
function useGenerateTitle() {
  const queryClient = useQueryClient();
  return useEndpointMutation(sessionsApi.generateSessionTitle, {
    errorToast: false,
    onSuccess: async (session, { params }) => {
      const key = endpointKey(sessionsApi.getSession, { params });
      // A session fetch that started before the title existed must not overwrite it.
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      queryClient.setQueryData(key, session);
    },
    onSettled: () => invalidateEndpoints(queryClient, [sessionsApi.listSessions]),
  }).mutate;
}

function ChatConversation({ chatbotId, sessionHashId }: { chatbotId: number; sessionHashId: string | undefined }) {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const chatbot = useEndpointQuery(chatbotsApi.getChatbot, { params: { id: chatbotId } });
  const session = useEndpointQuery(sessionsApi.getSession, { params: { hash: sessionHashId ?? '' } }, { enabled: sessionHashId !== undefined });
  const generateTitle = useGenerateTitle();
  const history = useSessionHistory(sessionHashId);
  // Sessions created by a send on this page: the URL gains their id, but that is no newly opened chat.
  const [createdHere, setCreatedHere] = useState<ReadonlySet<string>>(() => new Set());
  const conversationKey = `${chatbotId}/${sessionHashId && !createdHere.has(sessionHashId) ? sessionHashId : ''}`;
  const run = useActiveRunStore((state) => state.run);
  const runMeta = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.getSnapshot().meta ?? null);
  const streaming = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.isActive ?? false);

  // Opening another conversation stops the answer of the previous one (the server keeps it).
  useEffect(() => {
    const current = useActiveRunStore.getState().run;
    if (current && (current.chatbotId !== chatbotId || current.sessionHashId !== (sessionHashId ?? null))) discardActiveRun();
  }, [chatbotId, sessionHashId]);

  const messages = useMemo(() => historyBesideRun(history.data, runMeta), [history.data, runMeta]);

  const face = useMemo<ChatbotFace>(
    () => ({ name: chatbot.data ? chatbotName(chatbot.data, language) : '', imageUrl: chatbot.data?.profile_image_url ?? null }),
    [chatbot.data, language],
  );

  const startNewSession = useCallback(() => {
    discardActiveRun();
    void navigate(`/dashboard/chat/${chatbotId}`);
  }, [chatbotId, navigate]);

  /** Sends the composer's text with its attachments, or a question asked again with the files it had. */
  const send = useCallback(
    (text: string, askedAgainFiles?: readonly SessionFile[]) => {
      const previous = useActiveRunStore.getState().run;
      // A new send cancels the running answer; it stays in the session as stopped.
      previous?.stop();
      const sessionHash = sessionHashId ?? previous?.sessionHashId ?? undefined;
      const isCurrent = () => useActiveRunStore.getState().run === next;
      const attached = askedAgainFiles ? [] : takeAttachments();
      const files = askedAgainFiles ?? attached.flatMap(({ id, url, type, name }) => (id === null || url === null ? [] : [{ id, url, type, name }]));
      const next: ChatRun = new ChatRun({
        chatbotId,
        body: { text, session_hash_id: sessionHash, file_ids: files.map((file) => file.id), ...webSearchFields(), ...modesBody() },
        memberFiles: files,
        streamChat,
        onMeta: (meta) => {
          if (!meta.session_created) return;
          setCreatedHere((created) => new Set(created).add(meta.session_hash_id));
          seedEmptyHistory(queryClient, meta.session_hash_id);
          void invalidateEndpoints(queryClient, [sessionsApi.listSessions]);
          if (isCurrent()) void navigate(`/dashboard/chat/${chatbotId}/${meta.session_hash_id}`, { replace: true });
        },
        onSettled: (snapshot: ChatRunSnapshot) => {
          if (snapshot.rejected) {
            // Nothing was stored: give the text back so the user can fix and resend it.
            if (isCurrent() && useActiveRunStore.getState().draft === '') useActiveRunStore.setState({ draft: snapshot.memberText });
            restoreAttachments(attached);
            return;
          }
          appendTurn(queryClient, snapshot);
          // An answer cut off shows as the server kept it (being written still, or interrupted).
          if (isCutOff(snapshot.error) && snapshot.meta) void queryClient.invalidateQueries({ queryKey: sessionHistoryKey(snapshot.meta.session_hash_id) });
          if (isCurrent() && snapshot.error === null) useActiveRunStore.setState({ run: null });
          if (snapshot.meta?.session_created) generateTitle({ params: { hash: snapshot.meta.session_hash_id } });
          else void invalidateEndpoints(queryClient, [sessionsApi.listSessions]);
        },
      });
      useActiveRunStore.setState({ run: next });
      void next.start();
    },
    [chatbotId, sessionHashId, navigate, queryClient, generateTitle],
  );

  const stop = useCallback(() => useActiveRunStore.getState().run?.stop(), []);
  const askAgain = useCallback<AskAgain>((question) => send(question.text, question.files), [send]);
  const attach = useCallback((files: File[]) => void attachFiles(files, chatbotId, (key, values) => showToast('error', t(key, values))), [chatbotId, t]);

  const { fetchNextPage } = history;
  const loadOlder = useCallback(() => {
    void fetchNextPage().then((result) => {
      if (result.isFetchNextPageError) showToast('error', t(errorKeyOf(result.error)));
    });
  }, [fetchNextPage, t]);

  const chatbotMissing = chatbot.isError;
  // The member's group may not use the chatbot's model: a send would be refused (403), so none is offered.
  const modelUnavailable = chatbot.data !== undefined && !chatbot.data.llm_model.is_available;
  const sessionMissing = session.isError && isApiError(session.error) && session.error.status === 404;
  const historyLoading = sessionHashId !== undefined && history.isPending;
  const newestPage = history.data?.pages[0];

  let body;
  if (chatbotMissing) {
    body = <Unavailable title={t(errorMessageKey(chatbot.error, chatbotsApi.getChatbot))} />;
  } else if (sessionMissing || (history.isError && !history.data)) {
    body = <Unavailable title={sessionMissing ? t('session.notFound') : t(errorKeyOf(history.error))} onNewSession={startNewSession} />;
  } else if (historyLoading) {
    body = <HistorySkeleton />;
  } else {
    body = (
      <MessageList
        messages={messages}
        run={run}
        face={face}
        hasOlder={history.hasNextPage}
        loadingOlder={history.isFetchingNextPage}
        onLoadOlder={loadOlder}
        empty={<Welcome chatbot={chatbot.data} />}
        onAskAgain={askAgain}
      />
    );
  }

  if (chatbotMissing && isApiError(chatbot.error) && chatbot.error.status === 404) return <ChatbotUnavailable />;
  return (
    <ChatDropZone className={classes.page} onFiles={attach} disabled={!chatbot.data || sessionMissing || modelUnavailable}>
      <ChatHeader chatbot={chatbot.data} session={session.data} hasSession={sessionHashId !== undefined} onNewSession={startNewSession} />
      {body}
      {chatbot.data && (
        <LongConversationBanner
          contextTokens={newestPage?.context_tokens ?? 0}
          contextLimit={chatbot.data.llm_model.context_limit}
          run={run}
          onNewSession={startNewSession}
        />
      )}
      {modelUnavailable ? (
        <Alert mx="auto" maw={772} w="100%" variant="light" color="gray" data-testid="model-unavailable">
          <Text size="sm">{t('modelUnavailable.reason')}</Text>
        </Alert>
      ) : (
        chatbot.data && <CreditBanner chatbot={chatbot.data} run={run} />
      )}
      <Composer
        onSend={send}
        onStop={stop}
        streaming={streaming}
        disabled={!chatbot.data || sessionMissing || modelUnavailable}
        conversationKey={conversationKey}
        onAttach={attach}
      />
    </ChatDropZone>
  );
}

export default function ChatPage() {
  const { chatbotId, sessionHashId } = useParams();
  if (chatbotId === undefined) return <DefaultChatbotRedirect />;
  const id = Number(chatbotId);
  if (!Number.isInteger(id) || id <= 0) return <Navigate to="/dashboard/chat" replace />;
  return <ChatConversation chatbotId={id} sessionHashId={sessionHashId} />;
}

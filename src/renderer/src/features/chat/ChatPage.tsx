import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Center, EmptyState, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useNavigation, useParams, useSearchParams } from 'react-router-dom';
import { chatbotsApi, isApiError, sessionsApi, type Chatbot, type SessionFile, type SessionMessage } from '../../../../shared/api';
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
import { appendTurn, flattenHistory, historyBesideRun, seedEmptyHistory, sessionHistoryKey, useOlderPages, useSessionHistory, useShowBranch } from './history';
import type { BranchActions } from './BranchControls';
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
import { messageText } from '../../i18n/keys';

const noSubscription = () => () => {};
/** How many frames a switched branch's row has to appear in before its arrow is focused. */
const ARROW_FOCUS_FRAMES = 30;

/**
 * /dashboard/chat without a chatbot opens the first default chatbot (dashboard start, spec §7) the
 * member may use; when their groups may use none of the models, it says so instead.
 */
function DefaultChatbotRedirect() {
  const { t } = useTranslation('chat');
  const chatbots = useDashboardChatbots();
  // A page opened from the navigation while the list was loading (its chunk still on its way) wins:
  // redirecting now would cancel it and put the member back in the chat.
  const navigating = useNavigation().state !== 'idle';
  if (chatbots.isPending || navigating) {
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
        title={chatbots.isError ? messageText(errorKeyOf(chatbots.error)) : t(`empty.${reason}`)}
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

function ChatConversation({ chatbotId, sessionHashId, messageId }: { chatbotId: number; sessionHashId: string | undefined; messageId: number | undefined }) {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const chatbot = useEndpointQuery(chatbotsApi.getChatbot, { params: { id: chatbotId } });
  const session = useEndpointQuery(sessionsApi.getSession, { params: { hash: sessionHashId ?? '' } }, { enabled: sessionHashId !== undefined });
  const generateTitle = useGenerateTitle();
  // A search result (`messageId`) opens on the branch holding its message, loaded back to it: the
  // history waits for that instead of loading the active branch first.
  // Each opening of a result is a navigation of its own, the same link opened again included.
  const { key: locationKey } = useLocation();
  const openAt = sessionHashId !== undefined && messageId !== undefined ? `${sessionHashId}/${messageId}/${locationKey}` : null;
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const openingAtMessage = openAt !== null && openedAt !== openAt;
  const history = useSessionHistory(sessionHashId, !openingAtMessage);
  const { mutate: showMessage } = useShowBranch({ errorToast: false });
  const openStarted = useRef<string | null>(null);
  useEffect(() => {
    if (openAt === null || sessionHashId === undefined || messageId === undefined || openStarted.current === openAt) return;
    openStarted.current = openAt;
    // A message the session no longer has: the chat opens as it is.
    showMessage(
      { params: { hash: sessionHashId }, body: { message_id: messageId }, isTarget: (message) => message.id === messageId },
      { onSettled: () => setOpenedAt(openAt) },
    );
  }, [openAt, sessionHashId, messageId, showMessage]);
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

  const messages = useMemo(
    () => historyBesideRun(history.data, runMeta, streaming ? (run?.replacesFrom ?? null) : null),
    [history.data, runMeta, streaming, run],
  );

  const face = useMemo<ChatbotFace>(
    () => ({ name: chatbot.data ? chatbotName(chatbot.data, language) : '', imageUrl: chatbot.data?.profile_image_url ?? null }),
    [chatbot.data, language],
  );

  const startNewSession = useCallback(() => {
    discardActiveRun();
    void navigate(`/dashboard/chat/${chatbotId}`);
  }, [chatbotId, navigate]);

  /**
   * Sends the composer's text with its attachments, or a question asked again with the files it had,
   * or (`branch`) regenerates the answer to a stored question or sends it edited.
   */
  const send = useCallback(
    (text: string, askedAgainFiles?: readonly SessionFile[], branch?: { kind: 'regenerate' | 'edit'; question: SessionMessage }) => {
      const previous = useActiveRunStore.getState().run;
      // A new send cancels the running answer; it stays in the session as stopped.
      previous?.stop();
      const sessionHash = sessionHashId ?? previous?.sessionHashId ?? undefined;
      const isCurrent = () => useActiveRunStore.getState().run === next;
      const attached = askedAgainFiles ? [] : takeAttachments();
      const files = askedAgainFiles ?? attached.flatMap(({ id, url, type, name }) => (id === null || url === null ? [] : [{ id, url, type, name }]));
      const branchFields =
        branch?.kind === 'regenerate' ? { regenerate_message_id: branch.question.id } : branch ? { edit_message_id: branch.question.id } : {};
      const next: ChatRun = new ChatRun({
        chatbotId,
        body: {
          // A regeneration asks the stored question: no text or files of its own.
          text: branch?.kind === 'regenerate' ? '' : text,
          session_hash_id: sessionHash,
          file_ids: branch?.kind === 'regenerate' ? [] : files.map((file) => file.id),
          ...branchFields,
          ...webSearchFields(),
          ...modesBody(),
        },
        memberFiles: files,
        memberText: text,
        replacesFrom: branch?.question.id,
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
            // (A regeneration or an edit keeps its question where it was.)
            if (!branch && isCurrent() && useActiveRunStore.getState().draft === '') useActiveRunStore.setState({ draft: snapshot.memberText });
            restoreAttachments(attached);
            return;
          }
          appendTurn(queryClient, snapshot, next.replacesFrom);
          // The versions' counts as the server has them (another device may have added some).
          if (branch && snapshot.meta) void queryClient.invalidateQueries({ queryKey: sessionHistoryKey(snapshot.meta.session_hash_id) });
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

  // Read when a button is pressed, so the actions (and every memoized row) stay the same as pages load.
  const messagesNow = useRef(messages);
  messagesNow.current = messages;

  // After a switch the row shown is another message: the list scrolls to it (the branch was loaded
  // back to it), and focus goes to the same arrow on it (the other one when that end is reached), so
  // the keyboard stays in place, once the row is on screen.
  const [arrowToFocus, setArrowToFocus] = useState<{ messageId: number; arrows: string[] } | null>(null);
  const [revealed, setRevealed] = useState<{ messageId: number } | undefined>(undefined);
  const switchBranch = useShowBranch({
    onShown: (data, { body, isTarget }) => {
      const switched = messagesNow.current.find((message) => message.id === body.message_id);
      const shown = flattenHistory(data).find(isTarget);
      if (!switched || !shown || body.position === undefined) return;
      setRevealed({ messageId: shown.id });
      setArrowToFocus({ messageId: shown.id, arrows: body.position < switched.sibling_position ? ['previous', 'next'] : ['next', 'previous'] });
    },
  });
  useEffect(() => {
    if (!arrowToFocus) return;
    // The list renders its rows a frame or two after the history changed.
    let framesLeft = ARROW_FOCUS_FRAMES;
    let frame = 0;
    const tryFocus = () => {
      const arrow = (name: string) =>
        document.querySelector<HTMLButtonElement>(`[data-message-id="${arrowToFocus.messageId}"] [data-version-button="${name}"]:not(:disabled)`);
      const target = arrowToFocus.arrows.map(arrow).find((button) => button !== null);
      if (target) target.focus();
      if (target || --framesLeft === 0) setArrowToFocus(null);
      else frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [arrowToFocus]);
  const { mutate: switchTo, isPending: switching } = switchBranch;
  const branchBusy = streaming || switching;
  const branching = useMemo<BranchActions | undefined>(
    () =>
      sessionHashId === undefined
        ? undefined
        : {
            regenerate: (answer) => {
              const question = messagesNow.current.find((message) => message.id === answer.parent_id);
              if (question) send(question.text, question.files, { kind: 'regenerate', question });
            },
            edit: (question, text) => send(text, question.files, { kind: 'edit', question }),
            switchTo: (message, position) =>
              switchTo({
                params: { hash: sessionHashId },
                body: { message_id: message.id, position },
                // The version shown instead: the one following the same message.
                isTarget: (candidate) => candidate.parent_id === message.parent_id,
              }),
            busy: branchBusy,
          },
    [sessionHashId, send, switchTo, branchBusy],
  );
  const askAgain = useCallback<AskAgain>((question) => send(question.text, question.files), [send]);
  const attach = useCallback((files: File[]) => void attachFiles(files, chatbotId, (key, values) => showToast('error', messageText(key, values))), [chatbotId]);

  const showLoadError = useCallback((error: unknown) => showToast('error', messageText(errorKeyOf(error))), []);
  const olderPages = useOlderPages(history, { onError: showLoadError });

  const chatbotMissing = chatbot.isError;
  // The member's group may not use the chatbot's model: a send would be refused (403), so none is offered.
  const modelUnavailable = chatbot.data !== undefined && !chatbot.data.llm_model.is_available;
  const sessionMissing = session.isError && isApiError(session.error) && session.error.status === 404;
  const historyLoading = sessionHashId !== undefined && history.isPending;
  const newestPage = history.data?.pages[0];

  let body;
  if (chatbotMissing) {
    body = <Unavailable title={messageText(errorMessageKey(chatbot.error, chatbotsApi.getChatbot))} />;
  } else if (sessionMissing || (history.isError && !history.data)) {
    body = <Unavailable title={sessionMissing ? t('session.notFound') : messageText(errorKeyOf(history.error))} onNewSession={startNewSession} />;
  } else if (historyLoading || openingAtMessage) {
    body = <HistorySkeleton />;
  } else {
    body = (
      <MessageList
        messages={messages}
        run={run}
        face={face}
        {...olderPages}
        empty={<Welcome chatbot={chatbot.data} />}
        onAskAgain={askAgain}
        focusMessageId={messageId}
        reveal={revealed}
        feedbackSessionHash={sessionHashId}
        branching={branching}
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
  // `?message=<id>`: a search result opens the session at the message that matched.
  const messageParam = Number(useSearchParams()[0].get('message'));
  if (chatbotId === undefined) return <DefaultChatbotRedirect />;
  const id = Number(chatbotId);
  if (!Number.isInteger(id) || id <= 0) return <Navigate to="/dashboard/chat" replace />;
  const messageId = sessionHashId !== undefined && Number.isInteger(messageParam) && messageParam > 0 ? messageParam : undefined;
  return <ChatConversation chatbotId={id} sessionHashId={sessionHashId} messageId={messageId} />;
}

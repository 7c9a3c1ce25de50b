import { useCallback, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { publicSessionsApi, type ChatBody, type ChatMeta, type PublicSession } from '../../../../shared/api';
import { streamChat } from '../../api/chat';
import { endpointKey, useEndpointMutation } from '../../api/endpointHooks';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useActiveRunStore } from '../chat/activeRun';
import { ChatRun, type ChatRunSnapshot } from '../chat/chatRun';
import type { HistoryData } from '../chat/history';
import { publicHistoryKey } from './publicHistory';

const publicSessionKey = (hashId: string) => endpointKey(publicSessionsApi.getPublicSession, { params: { hash: hashId } });

const noSubscription = () => () => {};

interface VisitorRunOptions {
  /** The public chatbot as its session shows it (the first answer's session is seeded from it). */
  chatbot: PublicSession['chatbot'] | undefined;
  /** The visitor session sent to; undefined starts a new one. */
  sessionHash: string | undefined;
  /** Mode fields of the send (thinking, web search, task mode), read when it is sent. */
  modes?: () => Pick<ChatBody, 'thinking' | 'web_search' | 'task_mode_id'>;
  /** A new session was created by the first answer: its caches are seeded already. */
  onSessionCreated: (sessionHash: string) => void;
}

/**
 * A signed-out visitor's chat with a public chatbot (spec §4 public chat), shared by the shared
 * session page and the public chatbot page: streams through the public chat path in the visitor's
 * language, seeds a new session's caches so its page opens without a round trip, refreshes the
 * history when the answer is saved and titles a new session.
 */
export function useVisitorRun({ chatbot, sessionHash, modes, onSessionCreated }: VisitorRunOptions) {
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const [run, setRun] = useState<ChatRun | null>(null);
  const runMeta = useSyncExternalStore<ChatMeta | null>(run?.subscribe ?? noSubscription, () => run?.getSnapshot().meta ?? null);
  const streaming = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.isActive ?? false);
  // The chat keeps working untitled: a failure is not toasted.
  const { mutate: generateTitle } = useEndpointMutation(publicSessionsApi.generatePublicSessionTitle, {
    errorToast: false,
    onSuccess: (titled, { params }) => queryClient.setQueryData(publicSessionKey(params.hash), titled),
  });

  const send = useCallback(
    (text: string) => {
      if (!chatbot) return;
      run?.stop();
      const next: ChatRun = new ChatRun({
        chatbotId: chatbot.id,
        body: { text, session_hash_id: sessionHash, ...modes?.() },
        streamChat: (request) => streamChat({ ...request, visitor: { language } }),
        onMeta: (meta) => {
          if (!meta.session_created) return;
          const hashId = meta.session_hash_id;
          const empty: HistoryData = { pages: [{ items: [], has_more: false, context_tokens: 0 }], pageParams: [undefined] };
          queryClient.setQueryData(publicHistoryKey(hashId), empty);
          queryClient.setQueryData<PublicSession>(publicSessionKey(hashId), {
            hash_id: hashId,
            title: null,
            creator_name: null,
            chatbot,
            last_chat_at: null,
            created_at: new Date().toISOString(),
          });
          onSessionCreated(hashId);
        },
        onSettled: (snapshot: ChatRunSnapshot) => {
          if (snapshot.rejected) {
            if (useActiveRunStore.getState().draft === '') useActiveRunStore.setState({ draft: snapshot.memberText });
            return;
          }
          const hashId = snapshot.meta?.session_hash_id;
          if (!hashId) return;
          // Invalidated rather than refetched: a history with no page observing it yet (its page still
          // opening) must be fetched by that page's infinite query, never as a plain one.
          void queryClient.invalidateQueries({ queryKey: publicHistoryKey(hashId), exact: true }).then(() => {
            if (snapshot.error === null) setRun((current) => (current === next ? null : current));
          });
          if (snapshot.meta?.session_created) generateTitle({ params: { hash: hashId }, query: { language } });
        },
      });
      setRun(next);
      void next.start();
    },
    [chatbot, sessionHash, modes, language, onSessionCreated, queryClient, run, generateTitle],
  );

  const reset = useCallback(() => {
    run?.stop();
    setRun(null);
  }, [run]);

  return { run, runMeta, streaming, send, stop: () => run?.stop(), reset };
}

import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMatch, useNavigate } from 'react-router-dom';
import { sessionsApi, type Paginated, type Session } from '../../../../shared/api';
import { startingChatbot, useDashboardChatbots } from '../../api/chatbots';
import { endpointKey, endpointPagesKey, useEndpointMutation } from '../../api/endpointHooks';
import { showToast } from '../../components/toast';

type SessionPages = InfiniteData<Paginated<Session>, number>;

/** The session list without one session, keeping the page structure (for optimistic removal). */
function withoutSession(data: SessionPages, hashId: string): SessionPages {
  return {
    ...data,
    pages: data.pages.map((page) => {
      const items = page.items.filter((session) => session.hash_id !== hashId);
      return { ...page, items, total_items: page.total_items - (page.items.length - items.length) };
    }),
  };
}

/**
 * Deletes a session optimistically (spec §2): it leaves the list at once, comes back with the
 * error_delete_session toast when the server refuses, and deleting the open session moves the
 * user to the chat of the first default chatbot.
 */
export function useDeleteSession() {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const openSession = useMatch('/dashboard/chat/:chatbotId/:sessionHashId');
  const chatbots = useDashboardChatbots();

  const list = endpointPagesKey(sessionsApi.listSessions);
  return useEndpointMutation(sessionsApi.deleteSession, {
    toInput: (session: Session) => ({ params: { hash: session.hash_id } }),
    onMutate: async (session) => {
      await queryClient.cancelQueries({ queryKey: list });
      const previous = queryClient.getQueryData<SessionPages>(list);
      if (previous) queryClient.setQueryData(list, withoutSession(previous, session.hash_id));
      return { previous };
    },
    // Spec §2: one message for any refusal; the session comes back.
    errorToast: { overrides: [{ key: 'dashboard:error_delete_session' }] },
    onError: (_error, _session, context) => {
      if (context?.previous) queryClient.setQueryData(list, context.previous);
    },
    onSuccess: (_result, session) => {
      // Screen readers hear that it worked; the list alone changes silently.
      showToast('success', t('session_deleted', { title: session.title || t('untitled') }));
      queryClient.removeQueries({ queryKey: endpointKey(sessionsApi.getSession, { params: { hash: session.hash_id } }) });
      if (openSession?.params.sessionHashId !== session.hash_id) return;
      const fallback = startingChatbot(chatbots.data?.items ?? []);
      void navigate(fallback ? `/dashboard/chat/${fallback.id}` : '/dashboard/chat', { replace: true });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: list }),
  });
}

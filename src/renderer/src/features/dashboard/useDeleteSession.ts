import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useMatch, useNavigate } from 'react-router-dom';
import type { Session } from '../../../../shared/api';
import { deleteSession, withoutSession, type SessionPages } from '../../api/sessions';
import { startingChatbot, useDashboardChatbots } from '../../api/chatbots';
import { queryKeys } from '../../api/queryKeys';
import { showToast } from '../../components/toast';

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

  return useMutation({
    mutationFn: (session: Session) => deleteSession(session.hash_id),
    onMutate: async (session) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.sessions });
      const previous = queryClient.getQueryData<SessionPages>(queryKeys.sessions);
      if (previous) queryClient.setQueryData(queryKeys.sessions, withoutSession(previous, session.hash_id));
      return { previous };
    },
    onError: (_error, _session, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.sessions, context.previous);
      showToast('error', t('error_delete_session'));
    },
    onSuccess: (_result, session) => {
      // Screen readers hear that it worked; the list alone changes silently.
      showToast('success', t('session_deleted', { title: session.title || t('untitled') }));
      queryClient.removeQueries({ queryKey: queryKeys.session(session.hash_id) });
      if (openSession?.params.sessionHashId !== session.hash_id) return;
      const fallback = startingChatbot(chatbots.data?.items ?? []);
      void navigate(fallback ? `/dashboard/chat/${fallback.id}` : '/dashboard/chat', { replace: true });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

import { useQuery } from '@tanstack/react-query';
import { chatbotsApi, type Chatbot } from '../../../shared/api';
import { DASHBOARD_CHATBOT_LIST_SIZE } from '../../../shared/domain/pagination';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** Dashboard start (spec §7): the chatbots list with the defaults included, 30 of them. */
export function useDashboardChatbots(enabled = true) {
  return useQuery({
    queryKey: queryKeys.dashboardChatbots,
    queryFn: () => callEndpoint(chatbotsApi.listChatbots, { query: { include_default: true, size: DASHBOARD_CHATBOT_LIST_SIZE } }),
    enabled,
  });
}

export function useChatbot(chatbotId: number) {
  return useQuery({
    queryKey: queryKeys.chatbot(chatbotId),
    queryFn: () => callEndpoint(chatbotsApi.getChatbot, { params: { id: chatbotId } }),
  });
}

export function firstDefaultChatbot(chatbots: readonly Chatbot[]): Chatbot | undefined {
  return chatbots.find((chatbot) => chatbot.is_default);
}

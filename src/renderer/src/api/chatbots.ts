import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { chatbotsApi, type Chatbot } from '../../../shared/api';
import { DASHBOARD_CHATBOT_LIST_SIZE } from '../../../shared/domain/pagination';
import { CHATBOT_SWITCHER_SIZE } from '../../../shared/domain/sharing';
import { callEndpoint } from './client';
import { endpointKey, useEndpointQuery } from './endpointHooks';
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

/**
 * Where the chat starts (dashboard, /dashboard/chat, after deleting the open session): the first
 * default chatbot whose model the member's groups may use, else the first usable chatbot at all.
 * None when every model is switched off for them.
 */
export function startingChatbot(chatbots: readonly Chatbot[]): Chatbot | undefined {
  const usable = chatbots.filter((chatbot) => chatbot.llm_model.is_available);
  return usable.find((chatbot) => chatbot.is_default) ?? usable[0];
}

/** The chat header's switcher: chatbots the member sees (defaults first) matching the search. */
export function useChatbotSearch(searchTerm: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.chatbotSearch(searchTerm),
    queryFn: () =>
      callEndpoint(chatbotsApi.listChatbots, { query: { include_default: true, size: CHATBOT_SWITCHER_SIZE, search_term: searchTerm || undefined } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

const RECENT_CHATBOTS = { query: { recent: true, size: 10 } };

/** Where the member's recent chatbots are cached: remembering or forgetting one makes it stale. */
export const recentChatbotsKey = endpointKey(chatbotsApi.listChatbots, RECENT_CHATBOTS);

/** The member's recent chatbots (at most 3), for the Store and the chat's chatbot switcher. */
export function useRecentChatbots() {
  return useEndpointQuery(chatbotsApi.listChatbots, RECENT_CHATBOTS, { select: (answer) => answer.items });
}

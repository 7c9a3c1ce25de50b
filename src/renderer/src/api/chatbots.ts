import { chatbotsApi, type Chatbot } from '../../../shared/api';
import { DASHBOARD_CHATBOT_LIST_SIZE } from '../../../shared/domain/pagination';
import { endpointKey, useEndpointQuery } from './endpointHooks';

/**
 * Dashboard start (spec §7): the chatbots list with the defaults included, 30 of them. Shared by the
 * navigation, the chat and its banners; a failed load is toasted once, whoever asked.
 */
export function useDashboardChatbots(enabled = true) {
  return useEndpointQuery(chatbotsApi.listChatbots, { query: { include_default: true, size: DASHBOARD_CHATBOT_LIST_SIZE } }, { enabled, errorToast: true });
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

const RECENT_CHATBOTS = { query: { recent: true, size: 10 } };

/** Where the member's recent chatbots are cached: remembering or forgetting one makes it stale. */
export const recentChatbotsKey = endpointKey(chatbotsApi.listChatbots, RECENT_CHATBOTS);

/** The member's recent chatbots (at most 3), for the Store and the chat's chatbot switcher. */
export function useRecentChatbots() {
  return useEndpointQuery(chatbotsApi.listChatbots, RECENT_CHATBOTS, { select: (answer) => answer.items });
}

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { chatbotsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export type StoreOrder = 'popular' | 'created_at.desc';

export interface StoreQuery {
  page: number;
  size: number;
  search: string;
  categoryId: number | null;
  order: StoreOrder;
}

/** The Store: public chatbots by category and search, most used or newest first. */
export function useStoreChatbots({ page, size, search, categoryId, order }: StoreQuery) {
  return useQuery({
    queryKey: queryKeys.store(page, size, search, categoryId, order),
    queryFn: () =>
      callEndpoint(chatbotsApi.listChatbots, {
        query: { page, size, is_public: true, order_by: order, ...(search ? { search_term: search } : {}), ...(categoryId ? { category_id: categoryId } : {}) },
      }),
    placeholderData: keepPreviousData,
  });
}

/** The member's recent chatbots (at most 3), for the Store and the chat's chatbot switcher. */
export function useRecentChatbots() {
  return useQuery({ queryKey: queryKeys.recentChatbots, queryFn: async () => (await callEndpoint(chatbotsApi.listChatbots, { query: { recent: true, size: 10 } })).items });
}

export function useRecentChatbotActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.recentChatbots });
  return {
    remember: async (id: number) => {
      await callEndpoint(chatbotsApi.rememberChatbot, { params: { id } });
      await refresh();
    },
    forget: async (id: number) => {
      await callEndpoint(chatbotsApi.forgetChatbot, { params: { id } });
      await refresh();
    },
  };
}

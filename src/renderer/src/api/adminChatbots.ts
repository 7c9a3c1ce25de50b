import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminChatbotsApi } from '../../../shared/api';
import type { z } from 'zod';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export type AdminChatbotQuery = z.input<typeof adminChatbotsApi.adminChatbotListQuerySchema>;

export function useAdminChatbots(query: AdminChatbotQuery) {
  return useQuery({
    queryKey: queryKeys.adminChatbots(query),
    queryFn: () => callEndpoint(adminChatbotsApi.listAdminChatbots, { query }),
    placeholderData: keepPreviousData,
  });
}

export const decidePublishRequest = (id: number, approve: boolean, reason?: string) =>
  callEndpoint(adminChatbotsApi.processPublishRequest, { params: { id }, body: { approve, ...(reason ? { reason } : {}) } });

export const decidePublishRequests = (ids: number[], approve: boolean, reason?: string) =>
  callEndpoint(adminChatbotsApi.bulkProcessPublishRequests, { body: { chatbot_ids: ids, approve, ...(reason ? { reason } : {}) } });

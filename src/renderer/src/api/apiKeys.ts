import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiKeysApi, chatbotsApi, openAiApi, type CreateApiKeyBody, type UpdateApiKeyBody } from '../../../shared/api';
import { callEndpoint } from './client';
import { getPlatform } from '../platform';
import { queryKeys } from './queryKeys';

export type ApiKeyQuery = z.input<typeof apiKeysApi.apiKeyListQuerySchema>;

/** Most chatbots a key's picker offers: the largest page the chatbot list serves. */
const KEY_CHATBOT_CHOICES = 100;

export function useApiKeys(query: ApiKeyQuery) {
  return useQuery({
    queryKey: queryKeys.apiKeys(query),
    queryFn: () => callEndpoint(apiKeysApi.listApiKeys, { query }),
    placeholderData: keepPreviousData,
  });
}

export const createApiKey = (body: CreateApiKeyBody) => callEndpoint(apiKeysApi.createApiKey, { body });
export const updateApiKey = (id: number, body: UpdateApiKeyBody) => callEndpoint(apiKeysApi.updateApiKey, { params: { id }, body });
export const revokeApiKey = (id: number) => callEndpoint(apiKeysApi.revokeApiKey, { params: { id } });

/** The chatbots a key may be given: those the member sees, defaults included. */
export function useKeyChatbotChoices() {
  return useQuery({
    queryKey: queryKeys.apiKeyChatbotChoices,
    queryFn: () => callEndpoint(chatbotsApi.listChatbots, { query: { include_default: true, size: KEY_CHATBOT_CHOICES } }),
  });
}

/**
 * Where an OpenAI client reaches this server: the API base of the client's settings plus the
 * contract's path of the OpenAI-compatible API, and the tenant to send as `x-subdomain`.
 */
export function useOpenAiEndpoint() {
  return useQuery({
    queryKey: queryKeys.clientSettings,
    queryFn: async () => {
      const { apiBase, subdomain } = await getPlatform().settings.get();
      const chatPath = openAiApi.chatCompletions.path;
      const basePath = chatPath.slice(0, chatPath.lastIndexOf('/chat/completions'));
      return { baseUrl: `${apiBase.replace(/\/$/, '')}${basePath}`, chatPath: chatPath.slice(basePath.length), subdomain };
    },
    staleTime: Infinity,
  });
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildPath, categoriesApi, chatbotsApi, filesApi, llmModelsApi, memberGroupsApi, type ChatbotDocument } from '../../../shared/api';
import type { CreateChatbotBody, UpdateChatbotAccessBody, UpdateChatbotBody } from '../../../shared/api/chatbots';
import { transferPercentage } from './files';
import { callEndpoint, sendRaw } from './client';
import { queryKeys } from './queryKeys';

/** Studio "My chatbots": the member's own chatbots, drafts included (spec §2 list rule). */
export function useMyChatbots(memberId: number | undefined, page: number, size: number, search: string) {
  return useQuery({
    queryKey: queryKeys.myChatbots(memberId ?? 0, page, size, search),
    queryFn: () =>
      callEndpoint(chatbotsApi.listChatbots, {
        query: { creator_id: memberId, page, size, order_by: 'created_at.desc', ...(search ? { search_term: search } : {}) },
      }),
    enabled: memberId !== undefined,
    placeholderData: keepPreviousData,
  });
}

export function useCategories() {
  return useQuery({ queryKey: queryKeys.categories, queryFn: async () => (await callEndpoint(categoriesApi.listCategories)).items, staleTime: 300_000 });
}

/** Models the member may put in a chatbot (the server leaves out prohibited and not-allowed ones). */
export function useChatbotModels() {
  return useQuery({
    queryKey: queryKeys.chatbotModels,
    queryFn: async () => (await callEndpoint(llmModelsApi.listLlmModels, { query: { for_chatbot: true } })).items,
    staleTime: 60_000,
  });
}

/** The tenant's member groups (one page of 100 is every group a tenant has in practice). */
export function useMemberGroups(enabled = true) {
  return useQuery({
    queryKey: queryKeys.memberGroups,
    queryFn: async () => (await callEndpoint(memberGroupsApi.listMemberGroups, { query: { size: 100 } })).items,
    staleTime: 60_000,
    enabled,
  });
}

export const createChatbot = (body: CreateChatbotBody) => callEndpoint(chatbotsApi.createChatbot, { body });

export const updateChatbot = (id: number, body: UpdateChatbotBody) => callEndpoint(chatbotsApi.updateChatbot, { params: { id }, body });

export const deleteChatbot = (id: number) => callEndpoint(chatbotsApi.deleteChatbot, { params: { id } });

export const updateChatbotAccess = (id: number, body: UpdateChatbotAccessBody) =>
  callEndpoint(chatbotsApi.updateChatbotAccess, { params: { id }, body });

export const checkPublicHash = async (id: number, publicHashId: string) =>
  (await callEndpoint(chatbotsApi.checkPublicHash, { params: { id }, body: { public_hash_id: publicHashId } })).is_available;

export async function uploadChatbotDocuments(id: number, files: readonly File[], onProgress?: (percentage: number) => void): Promise<ChatbotDocument[]> {
  const form = new FormData();
  for (const file of files) form.append(filesApi.UPLOAD_FIELD, file, file.name);
  const endpoint = chatbotsApi.uploadChatbotDocuments;
  const response = await sendRaw(endpoint, buildPath(endpoint.path, { id }), {
    body: form,
    onProgress: onProgress && ((progress) => progress.direction === 'upload' && onProgress(transferPercentage(progress))),
  });
  return endpoint.response.parse(await response.json()).items;
}

export const deleteChatbotDocument = (id: number, docId: number) => callEndpoint(chatbotsApi.deleteChatbotDocument, { params: { id, docId } });

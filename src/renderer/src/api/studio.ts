import { useQuery } from '@tanstack/react-query';
import { buildPath, categoriesApi, chatbotsApi, filesApi, memberGroupsApi, type ChatbotDocument } from '../../../shared/api';
import { transferPercentage } from './files';
import { callEndpoint, sendRaw } from './client';
import { endpointKey, useEndpointQuery } from './endpointHooks';

/** The Store's categories (the Store's filter, the Studio's editor and access dialog); they rarely change. */
export function useCategories() {
  return useEndpointQuery(categoriesApi.listCategories, {}, { staleTime: 300_000, select: (answer) => answer.items });
}

/** The tenant's member groups (one page of 100 is every group a tenant has in practice): the Studio's access dialog and the console's member screens. */
export function useMemberGroups(enabled = true) {
  return useEndpointQuery(memberGroupsApi.listMemberGroups, { query: { size: 100 } }, { staleTime: 60_000, enabled, select: (answer) => answer.items });
}

/**
 * Whether a chatbot's custom public link id is free: a POST that changes nothing, read as a query
 * (cached per id and value, so typing back an earlier value asks nothing).
 */
export function usePublicHashAvailable(chatbotId: number, publicHashId: string, enabled: boolean) {
  const input = { params: { id: chatbotId }, body: { public_hash_id: publicHashId } };
  return useQuery({
    queryKey: [...endpointKey(chatbotsApi.checkPublicHash, { params: input.params }), input.body],
    queryFn: async () => (await callEndpoint(chatbotsApi.checkPublicHash, input)).is_available,
    enabled,
    staleTime: 10_000,
  });
}

/** Uploads knowledge documents as one multipart request, reporting the share sent (0–100). */
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

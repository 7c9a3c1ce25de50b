import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { publicSessionsApi } from '../../../shared/api';
import type { SupportedLanguage } from '../../../shared/domain/language';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../shared/domain/pagination';
import { PUBLIC_CHATBOT_ROUTE, SHARED_SESSION_ROUTE, SHARED_WORKSPACE_PARAM } from '../../../shared/domain/sharing';
import { subdomainSchema } from '../../../shared/ipc/contract';
import { getPlatform } from '../platform';
import { callEndpoint } from './client';
import { endpointKey } from './endpointHooks';
import { queryKeys } from './queryKeys';

/** A shared session as a visitor sees it (404 when it is private). */
export function usePublicSession(hashId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: queryKeys.publicSession(hashId),
    queryFn: () => callEndpoint(publicSessionsApi.getPublicSession, { params: { hash: hashId } }),
    retry: false,
  });
}

/** A public chatbot as a visitor sees it, by its hash id or custom link (404 when it is not public). */
export function usePublicChatbot(hash: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: queryKeys.publicChatbot(hash),
    queryFn: () => callEndpoint(publicSessionsApi.getPublicChatbot, { params: { hash } }),
    retry: false,
  });
}

/** A shared session's messages, 20 at a time (same pages as the member's history). */
export function usePublicSessionHistory(hashId: string, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: queryKeys.publicSessionHistory(hashId),
    queryFn: ({ pageParam }) =>
      callEndpoint(publicSessionsApi.getPublicSessionHistory, { params: { hash: hashId }, query: { size: SESSION_HISTORY_PAGE_SIZE, first_id: pageParam } }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => (page.has_more ? page.items[0]?.id : undefined),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function generatePublicSessionTitle(hashId: string, language: SupportedLanguage) {
  return callEndpoint(publicSessionsApi.generatePublicSessionTitle, { params: { hash: hashId }, query: { language } });
}

/** A client address under the server's web origin, naming this client's workspace. */
async function webAddress(path: string): Promise<string> {
  const { apiBase, subdomain } = await getPlatform().settings.get();
  const url = new URL(path, apiBase);
  if (subdomain) url.searchParams.set(SHARED_WORKSPACE_PARAM, subdomain);
  return url.href;
}

/** The public page of a chatbot (its custom link when it has one), for the Studio to show and open; undefined until known. */
export function usePublicChatbotUrl(hash: string): string | undefined {
  return useQuery({
    queryKey: [...endpointKey(publicSessionsApi.getPublicChatbot, { params: { hash } }), 'page address'],
    queryFn: () => webAddress(`${PUBLIC_CHATBOT_ROUTE}/${encodeURIComponent(hash)}`),
    staleTime: Infinity,
  }).data;
}

/**
 * The address to share: the server's web origin (on desktop the page's own origin is the app
 * bundle), naming the workspace when this client has one, since the visitor's browser may not.
 */
export function sharedSessionUrl(hashId: string): Promise<string> {
  return webAddress(`${SHARED_SESSION_ROUTE}/${encodeURIComponent(hashId)}`);
}

/**
 * A signed-out visitor adopts the workspace a shared link names, so its public calls reach that
 * tenant; a signed-in member keeps theirs (their token belongs to it). Resolves when done.
 */
export async function adoptLinkWorkspace(workspace: string | null, signedIn: boolean): Promise<void> {
  if (!workspace || signedIn || !subdomainSchema.safeParse(workspace).success) return;
  const { subdomain } = await getPlatform().settings.get();
  if (subdomain !== workspace) await getPlatform().settings.set({ subdomain: workspace });
}

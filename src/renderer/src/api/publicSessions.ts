import { useQuery } from '@tanstack/react-query';
import { publicSessionsApi } from '../../../shared/api';
import { PUBLIC_CHATBOT_ROUTE, SHARED_SESSION_ROUTE, SHARED_WORKSPACE_PARAM } from '../../../shared/domain/sharing';
import { subdomainSchema } from '../../../shared/ipc/contract';
import { getPlatform } from '../platform';
import { endpointKey } from './endpointHooks';

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

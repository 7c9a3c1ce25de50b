import { useQuery } from '@tanstack/react-query';
import { openAiApi } from '../../../shared/api';
import { getPlatform } from '../platform';

/**
 * Where an OpenAI client reaches this server: the API base of the client's settings plus the
 * contract's path of the OpenAI-compatible API, and the tenant to send as `x-subdomain`.
 */
export function useOpenAiEndpoint() {
  return useQuery({
    // No endpoint is called: the client's own settings, read once.
    queryKey: ['client settings', 'openai endpoint'],
    queryFn: async () => {
      const { apiBase, subdomain } = await getPlatform().settings.get();
      const chatPath = openAiApi.chatCompletions.path;
      const basePath = chatPath.slice(0, chatPath.lastIndexOf('/chat/completions'));
      return { baseUrl: `${apiBase.replace(/\/$/, '')}${basePath}`, chatPath: chatPath.slice(basePath.length), subdomain };
    },
    staleTime: Infinity,
  });
}

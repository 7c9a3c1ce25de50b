import { useQuery } from '@tanstack/react-query';
import { filesApi } from '../../../shared/api';
import { endpointKey } from './endpointHooks';
import { fetchFileBlob } from './files';

/**
 * A generated image's bytes (a file URL the server gave), fetched with the member's credentials
 * like any file; kept for the page's life once loaded, since it never changes.
 */
export function useImage(url: string) {
  return useQuery({ queryKey: [...endpointKey(filesApi.getFile), { url }], queryFn: () => fetchFileBlob(url), staleTime: Infinity });
}

import { useQuery } from '@tanstack/react-query';
import { fetchFileBlob } from './files';
import { queryKeys } from './queryKeys';

/**
 * A generated image's bytes (a file URL the server gave), fetched with the member's credentials
 * like any file; kept for the page's life once loaded, since it never changes.
 */
export function useImage(url: string) {
  return useQuery({ queryKey: queryKeys.image(url), queryFn: () => fetchFileBlob(url), staleTime: Infinity });
}
